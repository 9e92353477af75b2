export { IncidentPanel } from './IncidentPanel';
export { IncidentZoneLayer } from './IncidentZoneLayer';
export { ReplayIncidentLayer } from './ReplayIncidentLayer';
