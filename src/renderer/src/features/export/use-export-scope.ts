import { useCallback, useState } from 'react';
import type { ExportSourceRef, ExportView } from '@shared/export/export-contract';
import { defaultScope, rowsToExport, scopedSource, type ExportCounts, type ExportScope } from './export-flow';

export interface ExportScopeState {
  /** The view as it was when the dialog opened; undefined when the caller has none (then only the whole dataset). */
  view: ExportView | undefined;
  scope: ExportScope;
  setScope(scope: ExportScope): void;
  /** Rows the export will write, when the caller said how many there are. */
  rows: number | null;
  /** Reads the caller's view and picks the default choice; called as the dialog opens. */
  capture(): void;
  /** The source to send to export.start for the chosen scope (the view read again, in case it moved). */
  sourceToExport(): ExportSourceRef;
}

/** The dialog's "this view or the whole dataset" choice and the row count it leads to. */
export function useExportScope(
  source: ExportSourceRef,
  resolveView: (() => ExportView | undefined) | undefined,
  counts: ExportCounts | undefined,
): ExportScopeState {
  const [view, setView] = useState<ExportView | undefined>(undefined);
  const [scope, setScope] = useState<ExportScope>('dataset');
  const read = useCallback(() => (resolveView ? resolveView() : source.view), [resolveView, source.view]);
  const capture = useCallback(() => {
    const v = read();
    setView(v);
    setScope(defaultScope(v));
  }, [read]);
  const effective: ExportScope = view ? scope : 'dataset';
  const sourceToExport = useCallback(
    () => scopedSource(source.datasetId, effective, read()),
    [source.datasetId, effective, read],
  );
  return { view, scope: effective, setScope, rows: rowsToExport(effective, counts), capture, sourceToExport };
}
