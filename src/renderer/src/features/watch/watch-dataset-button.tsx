import { useEffect } from 'react';
import { Box, Button, Tooltip } from '@mantine/core';
import { IconEye, IconEyeCheck } from '@tabler/icons-react';
import type { DatasetView } from '@shared/library/library-contract';
import { whyNotWatchable } from '@shared/watch/watch-contract';
import { notify } from '../../components/notify';
import { useWatchStore } from './watch-store';

const ICON = { size: 14, stroke: 1.6 } as const;

/** The button's word, shown from the large breakpoint on: a narrower header keeps its room for the name. */
function Label({ children }: { children: string }) {
  return (
    <Box component="span" visibleFrom="lg" ml={6}>
      {children}
    </Box>
  );
}

/**
 * The Library header's Watch: makes the open dataset a watched query (its rows are the first snapshot,
 * nothing is downloaded). A dataset watched already offers its Watched page instead; one that cannot
 * be watched (an imported file, a firm search) says why, on hover and focus, and when pressed.
 */
export function WatchDatasetButton({ d }: { d: DatasetView }) {
  const watch = useWatchStore((s) => s.watches.find((w) => w.datasetId === d.id) ?? null);
  const loaded = useWatchStore((s) => s.loaded);
  const adopting = useWatchStore((s) => s.adopting === d.id);
  const refused = useWatchStore((s) => (s.adoptError?.datasetId === d.id ? s.adoptError.error : null));
  const { load, watchDataset, show } = useWatchStore.getState();
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);

  if (watch) {
    return (
      <Tooltip label="Watched: show its snapshots and refresh it on the Watched page">
        <Button
          variant="light"
          size="xs"
          data-testid="library-watch"
          data-state="watched"
          aria-label="Watched"
          onClick={() => void show(watch.id)}
        >
          <IconEyeCheck {...ICON} />
          <Label>Watched</Label>
        </Button>
      </Tooltip>
    );
  }
  const why = whyNotWatchable(d) ?? refused?.message ?? null;
  return (
    <Tooltip
      label={
        why ??
        'Watch this query: these rows become its first snapshot (nothing is downloaded); each refresh fetches only what is new'
      }
      multiline
      w={320}
      color={why ? 'orange' : undefined}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Button
        variant="default"
        size="xs"
        data-testid="library-watch"
        data-state={why ? 'refused' : 'ready'}
        data-reason={why ?? ''}
        aria-description={why ?? undefined}
        // Not `disabled`: a disabled button takes no hover or focus, and the reason would not show.
        data-disabled={why ? true : undefined}
        loading={adopting}
        aria-label="Watch"
        onClick={(e) => {
          if (why) {
            e.preventDefault();
            notify({ title: 'This dataset cannot be watched', message: why, tone: 'warning' });
            return;
          }
          void watchDataset(d.id);
        }}
      >
        <IconEye {...ICON} />
        <Label>Watch</Label>
      </Button>
    </Tooltip>
  );
}
