/**
 * The zone of a fence or an incident, stored the same way in both tables: a circle (centre and
 * radius in metres, Points '') or a polygon (Points JSON `[[lat, lon], ...]`).
 */
export interface ZoneColumns {
  Name: string;
  Kind: string;
  CenterLat: number | null;
  CenterLon: number | null;
  Radius: number | null;
  Points: string;
}
