export { IncidentPanel } from './IncidentPanel';
export { IncidentZoneLayer } from './IncidentZoneLayer';
