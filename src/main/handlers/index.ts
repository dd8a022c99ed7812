export { createHandlers } from './create-handlers';
export {
  createDispatcher,
  isCallChannel,
  toBridgeResultError,
  type Dispatch,
  type DispatcherOptions,
} from './dispatcher';
export { createDroppedFiles, type DroppedFiles } from './dropped-files';
export { createHostFiles, EXPORTS_FOLDER, IMPORTS_FOLDER, type HostFiles } from './host-files';
export type {
  CallContext,
  ChooseOpenPath,
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
