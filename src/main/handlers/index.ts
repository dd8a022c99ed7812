export { createHandlers } from './create-handlers';
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
  ChooseSavePath,
  EventSink,
  HandlerDeps,
  HandlerFn,
  HandlerSlice,
  Handlers,
  HandlersHandle,
  SimulatorAccount,
  StartSimulator,
} from './types';
