export { createServices } from './create-services';
export {
  createDispatcher,
  isCallChannel,
  toBridgeResultError,
  type Dispatch,
  type DispatcherOptions,
} from './dispatcher';
export { DEFAULT_EXTERNAL_HOSTS, httpsHostOf, isAllowedExternalUrl } from './external-url';
export type {
  CallContext,
  EventSink,
  ServiceDeps,
  ServiceFn,
  ServiceSlice,
  Services,
  ServicesHandle,
  SimulatorAccount,
  StartSimulator,
} from './types';
