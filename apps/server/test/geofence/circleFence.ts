/** The body of a Geofence/Save for a 200 m circle named Depot, alarming on enter and exit; `fields` change it. */
export const circleFence = (fields: Record<string, unknown> = {}) => ({
  Name: 'Depot',
  Kind: 'circle',
  Center: [22.54, 114.05],
  Radius: 200,
  Enter: true,
  Exit: true,
  ...fields,
});
