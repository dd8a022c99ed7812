export { createWebHost, type WebHost, type WebHostDeps, type WebHostOptions } from './web-host';
export { createEventHub, type EventHub } from './event-hub';
export {
  startWebServer,
  TOKEN_HEADER,
  CONTENT_SECURITY_POLICY,
  type WebServer,
  type WebSender,
} from './web-server';
