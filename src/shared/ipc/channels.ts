/**
 * The names of every bridge call and event. Kept free of any import so the sandboxed preload bundle
 * stays tiny; `contract.ts` is type-checked against these lists.
 */
export const CALL_CHANNELS = [
  'app.info',
  'profiles.list',
  'profiles.create',
  'profiles.update',
  'profiles.delete',
  'profiles.setActive',
  'profiles.setCredentials',
  'profiles.testConnection',
  'demo.start',
  'usage.get',
  'shipments.search',
  'shipments.count',
  'firms.search',
  'firms.count',
  // presets
  'presets.list',
  'presets.save',
  'presets.rename',
  'presets.duplicate',
  'presets.delete',
  'presets.reorder',
  'presets.import',
  'presets.export',
  'presets.getLast',
  'presets.setLast',
  // analysis
  'analysis.datasets',
  'analysis.summary',
  'analysis.firmProfile',
  'analysis.diff',
  'analysis.unitValues',
  'analysis.exportXlsx',
  // end analysis
  // library
  'library.status',
  'library.list',
  'library.get',
  'library.rename',
  'library.setTags',
  'library.setNotes',
  'library.delete',
  'library.getRows',
  'library.findEquivalent',
  'library.chooseImportFile',
  'library.import',
  'library.previewImport',
  'library.checkImport',
  'library.cancelImportCheck',
  'library.cancelImport',
  'library.versions',
  'library.saveAgain',
  'library.keptRecords',
  // jobs
  'jobs.estimate',
  'jobs.start',
  'jobs.cancel',
  'jobs.pause',
  'jobs.list',
  'jobs.resume',
  'jobs.discard',
  // end library and jobs
  // firm resolution
  'resolution.status',
  'resolution.run',
  'resolution.firms',
  'resolution.firm',
  'resolution.review',
  'resolution.decide',
  'resolution.merge',
  'resolution.split',
  'resolution.decisions',
  'resolution.undo',
  'resolution.exportAliases',
  'resolution.importAliases',
  // end firm resolution
  // watched queries
  'watch.list',
  'watch.get',
  'watch.preview',
  'watch.adopt',
  'watch.refresh',
  'watch.rename',
  'watch.setOverlap',
  'watch.delete',
  'watch.changes',
  'watch.cancelRefresh',
  // end watched queries
  // export
  'export.start',
  'export.chooseTarget',
  'export.cancel',
  // end export
] as const;
export type CallChannel = (typeof CALL_CHANNELS)[number];

export const EVENT_CHANNELS = [
  'resolution.changed',
  'jobs.progress',
  'jobs.finished',
  'app.command',
  'usage.changed',
  'shipments.head',
  'library.changed',
  'library.importCheck',
  'library.saveFailed',
  'service.connection',
  'watch.progress',
] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** Prefix of the Electron IPC channel names, so nothing else on the bus can be mistaken for ours. */
export const IPC_PREFIX = 'portolan:';

/**
 * The one Electron message that is not a bridge call: the preload sends the path of a file dropped on
 * the window (read from the File by Electron's webUtils, never by the page), and main answers with an
 * import handle. Outside IPC_PREFIX, so no bridge method can reach it with a path of the page's own.
 */
export const FILE_DROP_CHANNEL = 'portolan-drop:import';
