// The entry point of out/trafficViewer.js: the protocol traffic viewer's panel. A bundle of its own,
// loaded the first time the viewer is shown or a trace is saved (registerTraffic.ts), so the
// extension's activation bundle stays within its size budget and activation does not parse it.
export { TrafficViewer } from './trafficPanel';
