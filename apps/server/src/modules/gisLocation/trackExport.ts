import type { Track } from '@intercom/contract';

/** "2026-11-22 14:05:09" in the reader's time (minutes east of UTC), as the list exports write it. */
function localTime(ms: number, utcOffset: number): string {
  return new Date(ms + utcOffset * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 with the reader's offset ("2026-11-22T14:05:09+08:00"): GPX readers keep the instant. */
function offsetTime(ms: number, utcOffset: number): string {
  const sign = utcOffset < 0 ? '-' : '+';
  const abs = Math.abs(utcOffset);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms + utcOffset * 60_000).toISOString().slice(0, 19)}${zone}`;
}

function xmlText(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
}

/** Rows of 1000 points joined at a time, so a week of fixes streams without one giant string. */
function* chunks(count: number, line: (i: number) => string): Generator<string> {
  for (let start = 0; start < count; start += 1000) {
    let text = '';
    for (let i = start; i < Math.min(count, start + 1000); i++) text += line(i);
    yield text;
  }
}

/**
 * GPX 1.1: the merged fixes as one track, a segment per stretch between "no data" gaps, each stop
 * a waypoint named with its begin and end. GPX 1.1 has no speed element; the CSV carries speed.
 */
export function* trackGpx(track: Track, name: string, utcOffset: number): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield '<gpx version="1.1" creator="Intercom Management Platform" xmlns="http://www.topografix.com/GPX/1/1">\n';
  for (const stop of track.stops) {
    yield `<wpt lat="${stop.lat}" lon="${stop.lon}"><time>${offsetTime(stop.begin, utcOffset)}</time>`;
    yield `<name>${xmlText(`${localTime(stop.begin, utcOffset)} - ${localTime(stop.end, utcOffset)}`)}</name><type>stop</type></wpt>\n`;
  }
  yield `<trk><name>${xmlText(name)}</name><trkseg>\n`;
  let gap = 0;
  yield* chunks(track.t.length, (i) => {
    const t = track.t[i] as number;
    let head = '';
    if (track.gaps[gap]?.end === t) {
      gap += 1;
      head = '</trkseg><trkseg>\n';
    }
    return `${head}<trkpt lat="${track.lat[i]}" lon="${track.lon[i]}"><time>${offsetTime(t, utcOffset)}</time></trkpt>\n`;
  });
  yield '</trkseg></trk>\n</gpx>\n';
}

/** CSV (UTF-8 with BOM, like the list exports): time in the reader's zone, position, speed, course, type. */
export function* trackCsv(track: Track, utcOffset: number): Generator<string> {
  yield '\uFEFFTime,Latitude,Longitude,Speed (km/h),Course,Type\r\n';
  yield* chunks(track.t.length, (i) =>
    [
      localTime(track.t[i] as number, utcOffset),
      track.lat[i],
      track.lon[i],
      track.speed[i],
      track.course[i] ?? '',
      track.type[i],
    ]
      .join(',')
      .concat('\r\n'),
  );
}
