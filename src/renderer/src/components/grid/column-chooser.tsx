import { useEffect, useRef, useState } from 'react';
import type { Column, GridApi } from 'ag-grid-community';
import { useDialogFocus } from '../use-dialog-focus';

interface ChooserGroup {
  id: string;
  name: string;
  columns: { id: string; name: string; visible: boolean; pinned: Pin }[];
}

type Pin = 'left' | 'right' | null;

function readGroups(api: GridApi): ChooserGroup[] {
  const groups = new Map<string, ChooserGroup>();
  for (const col of api.getColumns() ?? []) {
    const def = col.getColDef();
    if (def.lockVisible) continue;
    const parent = col.getOriginalParent();
    const gid = parent?.getGroupId() ?? '';
    const gname = parent?.getColGroupDef()?.headerName ?? 'Columns';
    const g = groups.get(gid) ?? { id: gid, name: gname, columns: [] };
    const pinned = col.getPinned();
    g.columns.push({
      id: col.getColId(),
      name: def.headerName ?? col.getColId(),
      visible: col.isVisible(),
      pinned: pinned === 'left' || pinned === 'right' ? pinned : null,
    });
    groups.set(gid, g);
  }
  return [...groups.values()];
}

/**
 * Community ag-grid has neither a columns tool panel nor a column menu (so no "Pin column" either):
 * this is a small replacement, grouped like the grid, that shows, hides and pins.
 */
export function ColumnChooser({
  api,
  testId,
  onReset,
}: {
  api: GridApi | null;
  testId: string;
  onReset?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const popupRef = useRef<HTMLDivElement>(null);
  useDialogFocus(popupRef, open, () => setOpen(false));
  const [groups, setGroups] = useState<ChooserGroup[]>([]);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    if (!api || !open) return;
    const update = () => setGroups(readGroups(api));
    update();
    api.addEventListener('columnVisible', update);
    api.addEventListener('columnPinned', update);
    api.addEventListener('newColumnsLoaded', update);
    return () => {
      if (api.isDestroyed()) return;
      api.removeEventListener('columnVisible', update);
      api.removeEventListener('columnPinned', update);
      api.removeEventListener('newColumnsLoaded', update);
    };
  }, [api, open]);
  const set = (cols: (string | Column)[], visible: boolean) => api?.setColumnsVisible(cols, visible);
  const pin = (col: string, to: Pin) => {
    // Pinning a hidden column would do nothing visible: show it as well.
    api?.setColumnsVisible([col], true);
    api?.setColumnsPinned([col], to);
  };
  const q = filter.trim().toLowerCase();
  return (
    <div className="column-chooser" style={{ position: 'relative' }}>
      <button
        type="button"
        data-testid={`${testId}-toggle`}
        aria-expanded={open}
        disabled={!api}
        onClick={() => setOpen((o) => !o)}
      >
        Columns…
      </button>
      {open && (
        <div
          ref={popupRef}
          data-testid={testId}
          role="dialog"
          aria-label="Choose columns"
          style={{
            position: 'absolute',
            zIndex: 20,
            right: 0,
            top: '100%',
            width: 400,
            maxHeight: 420,
            overflowY: 'auto',
            background: 'var(--surface, #fff)',
            color: 'var(--text, inherit)',
            border: '1px solid var(--border, #999)',
            borderRadius: 'var(--radius, 4px)',
            padding: 8,
            boxShadow: '0 4px 12px rgba(0,0,0,.2)',
          }}
        >
          <input
            type="search"
            placeholder="Find a column"
            value={filter}
            data-testid={`${testId}-search`}
            onChange={(e) => setFilter(e.target.value)}
            style={{ width: '100%' }}
          />
          {onReset && (
            <button type="button" data-testid={`${testId}-reset`} onClick={onReset}>
              Reset to defaults
            </button>
          )}
          {groups.map((g) => {
            const cols = g.columns.filter(
              (c) => !q || c.name.toLowerCase().includes(q) || c.id.toLowerCase().includes(q),
            );
            if (!cols.length) return null;
            return (
              <fieldset key={g.id} style={{ margin: '6px 0' }}>
                <legend>
                  {g.name}{' '}
                  <button
                    type="button"
                    data-testid={`${testId}-all-${g.id}`}
                    onClick={() =>
                      set(
                        cols.map((c) => c.id),
                        true,
                      )
                    }
                  >
                    all
                  </button>{' '}
                  <button
                    type="button"
                    data-testid={`${testId}-none-${g.id}`}
                    onClick={() =>
                      set(
                        cols.map((c) => c.id),
                        false,
                      )
                    }
                  >
                    none
                  </button>
                </legend>
                {cols.map((c) => (
                  <div key={c.id} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
                    <label style={{ flex: 1, minWidth: 0 }}>
                      <input
                        type="checkbox"
                        checked={c.visible}
                        data-testid={`${testId}-col-${c.id}`}
                        onChange={(e) => set([c.id], e.target.checked)}
                      />{' '}
                      {c.name} <small style={{ opacity: 0.6 }}>{c.id}</small>
                    </label>
                    <select
                      aria-label={`Pin ${c.name}`}
                      title="Pin the column to an edge of the grid"
                      value={c.pinned ?? ''}
                      data-testid={`${testId}-pin-${c.id}`}
                      onChange={(e) =>
                        pin(
                          c.id,
                          e.target.value === 'left' || e.target.value === 'right' ? e.target.value : null,
                        )
                      }
                      style={{ padding: '1px 4px', fontSize: 12 }}
                    >
                      <option value="">not pinned</option>
                      <option value="left">pin left</option>
                      <option value="right">pin right</option>
                    </select>
                  </div>
                ))}
              </fieldset>
            );
          })}
        </div>
      )}
    </div>
  );
}
