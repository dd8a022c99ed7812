export {
  createConnectionMonitor,
  tcpProbe,
  type ConnectionMonitor,
  type ConnectionMonitorOptions,
  type Probe,
} from './connection-monitor';
