import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  CloseButton,
  Group,
  Menu,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCheck,
  IconCopy,
  IconDots,
  IconDownload,
  IconGripVertical,
  IconPencil,
  IconSearch,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { PRESET_NAME_MAX, presetNameProblem } from '@shared/presets/preset-name';
import { ErrorMessage } from '../../components/error-message';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { validateDraft } from '../filters';
import { useFilter } from '../filters';
import { describeSetAside, filterPresets, usePresetsStore } from './presets-store';

const ICON = { size: 14, stroke: 1.6 } as const;

/** A note in the panel that stays until dismissed (`${testId}-dismiss`) or until its cause goes. */
function Note(props: {
  color: string;
  testId: string;
  role: 'alert' | 'status';
  onDismiss: () => void;
  children: ReactNode;
}) {
  return (
    <Alert color={props.color} role={props.role} data-testid={props.testId} p="xs">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Box flex={1} miw={0} fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {props.children}
        </Box>
        <CloseButton
          size="sm"
          aria-label="Dismiss"
          data-testid={`${props.testId}-dismiss`}
          onClick={props.onDismiss}
        />
      </Group>
    </Alert>
  );
}

/** The name field of a preset being renamed in place: Enter saves, Escape puts the old name back. */
function RenameField({ id, name, tid }: { id: string; name: string; tid: string }) {
  const [text, setText] = useState(name);
  const problem = presetNameProblem(text);
  const { commitRename, cancelRename } = usePresetsStore.getState();
  const save = () => {
    if (!problem) void commitRename(id, text);
  };
  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      w="100%"
    >
      <Group gap={4} wrap="nowrap">
        <TextInput
          size="xs"
          flex={1}
          value={text}
          aria-label={`New name for ${name}`}
          data-testid={`${tid}-rename-input`}
          maxLength={PRESET_NAME_MAX}
          aria-invalid={Boolean(problem)}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              cancelRename();
            }
          }}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
        />
        <Tooltip label="Save the new name (Enter)">
          <ActionIcon
            type="submit"
            size="sm"
            variant="subtle"
            data-testid={`${tid}-rename-save`}
            disabled={Boolean(problem)}
            aria-label="Save the new name"
          >
            <IconCheck {...ICON} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {problem && (
        <Text c="red" fz="xs" data-testid={`${tid}-rename-error`}>
          {problem}
        </Text>
      )}
    </Box>
  );
}

function PresetRow({
  id,
  name,
  index,
  count,
  active,
  renaming,
  draggable,
  dropBefore,
  onDragStart,
  onDragOver,
  onDrop,
  onDragEnd,
}: {
  id: string;
  name: string;
  index: number;
  count: number;
  active: boolean;
  renaming: boolean;
  draggable: boolean;
  dropBefore: boolean;
  onDragStart: (e: DragEvent) => void;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
  onDragEnd: () => void;
}) {
  const actions = usePresetsStore.getState();
  const tid = `preset-${index}`;
  return (
    <Box
      component="li"
      data-testid={tid}
      data-preset-name={name}
      data-active={active || undefined}
      className="preset-row"
      draggable={draggable && !renaming}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDrop={onDrop}
      onDragEnd={onDragEnd}
      style={{
        borderTop: `2px solid ${dropBefore ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
      }}
    >
      {renaming ? (
        <RenameField id={id} name={name} tid={tid} />
      ) : (
        <Group gap={2} wrap="nowrap">
          {draggable && (
            <Box c="dimmed" className="preset-grip" aria-hidden style={{ cursor: 'grab', display: 'flex' }}>
              <IconGripVertical size={14} stroke={1.4} />
            </Box>
          )}
          <UnstyledButton
            data-testid={`${tid}-load`}
            title={`${name}: load into the filter`}
            onClick={() => actions.useInForm(id)}
            onDoubleClick={() => actions.startRename(id)}
            onKeyDown={(e) => {
              if (e.key === 'F2') {
                e.preventDefault();
                actions.startRename(id);
              } else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
                // Keyboard reordering, the drag's equivalent.
                e.preventDefault();
                void actions.move(id, e.key === 'ArrowUp' ? 'up' : 'down');
              }
            }}
            className="preset-name"
            fz="sm"
            fw={active ? 600 : 400}
            c={active ? 'var(--mantine-primary-color-filled)' : undefined}
            flex={1}
            miw={0}
            px={4}
            py={3}
            style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {name}
          </UnstyledButton>
          <Menu position="bottom-end" withinPortal={false} shadow="md">
            <Menu.Target>
              <Tooltip label={`Actions for ${name}`}>
                <ActionIcon size="sm" aria-label={`Actions for ${name}`} data-testid={`${tid}-menu`}>
                  <IconDots {...ICON} />
                </ActionIcon>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconPencil {...ICON} />}
                rightSection={
                  <Text fz="xs" c="dimmed">
                    F2
                  </Text>
                }
                data-testid={`${tid}-rename`}
                onClick={() => actions.startRename(id)}
              >
                Rename
              </Menu.Item>
              <Menu.Item
                leftSection={<IconCopy {...ICON} />}
                data-testid={`${tid}-duplicate`}
                onClick={() => void actions.duplicate(id)}
              >
                Duplicate
              </Menu.Item>
              <Menu.Item
                leftSection={<IconArrowUp {...ICON} />}
                rightSection={
                  <Text fz="xs" c="dimmed">
                    Alt+↑
                  </Text>
                }
                data-testid={`${tid}-up`}
                disabled={index === 0}
                onClick={() => void actions.move(id, 'up')}
              >
                Move up
              </Menu.Item>
              <Menu.Item
                leftSection={<IconArrowDown {...ICON} />}
                rightSection={
                  <Text fz="xs" c="dimmed">
                    Alt+↓
                  </Text>
                }
                data-testid={`${tid}-down`}
                disabled={index === count - 1}
                onClick={() => void actions.move(id, 'down')}
              >
                Move down
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                leftSection={<IconTrash {...ICON} />}
                data-testid={`${tid}-delete`}
                onClick={() => window.confirm(`Delete the preset “${name}”?`) && void actions.remove(id)}
              >
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      )}
    </Box>
  );
}

/**
 * Saved filters as a side list beside the form: search, load with a click, rename in place
 * (double-click or F2), reorder by dragging (or Alt+↑/↓), duplicate and delete from the row's menu;
 * save the form's filter under a name; import and export.
 */
export function PresetsPanel() {
  const presets = usePresetsStore((s) => s.presets);
  const loaded = usePresetsStore((s) => s.loaded);
  const error = usePresetsStore((s) => s.error);
  const lastImport = usePresetsStore((s) => s.lastImport);
  const activeId = usePresetsStore((s) => s.activeId);
  const setAside = usePresetsStore((s) => s.setAside);
  const query = usePresetsStore((s) => s.query);
  const renamingId = usePresetsStore((s) => s.renamingId);
  const actions = usePresetsStore.getState();
  const draft = useFilter((s) => s.draft);
  const [name, setName] = useState('');
  const [dragId, setDragId] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const enter = useEnterSubmits();
  useEffect(() => {
    if (!loaded) void usePresetsStore.getState().load();
  }, [loaded]);
  const check = validateDraft(draft, 'filter');
  const reason = presetNameProblem(name) ?? (check.valid ? null : check.reason);
  const active = presets.find((p) => p.id === activeId);
  const shown = filterPresets(presets, query);
  // Dragging reorders the whole list: only while it is shown whole.
  const canDrag = !query.trim() && presets.length > 1;

  const drop = (toIndex: number) => {
    const id = dragId;
    setDragId(null);
    setDropIndex(null);
    if (!id) return;
    const from = presets.findIndex((p) => p.id === id);
    // Dropped before itself or before its own successor: nothing moves.
    if (from < 0 || toIndex === from || toIndex === from + 1) return;
    void actions.moveTo(id, toIndex > from ? toIndex - 1 : toIndex);
  };

  return (
    <Paper component="aside" data-testid="presets-panel" p="sm" w={248} h="100%" style={{ flexShrink: 0 }}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="md">
            Presets
          </Title>
          <Group gap={2} wrap="nowrap">
            <Tooltip label="Import presets from a file">
              <ActionIcon
                aria-label="Import presets from a file"
                data-testid="presets-import"
                onClick={() => fileRef.current?.click()}
              >
                <IconUpload {...ICON} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Export the presets to a file">
              <ActionIcon
                aria-label="Export the presets to a file"
                data-testid="presets-export"
                disabled={presets.length === 0}
                onClick={() => void actions.exportToDownload()}
              >
                <IconDownload {...ICON} />
              </ActionIcon>
            </Tooltip>
          </Group>
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="presets-import-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void file.text().then((t) => actions.importText(t));
            }}
          />
        </Group>
        <Box
          component="form"
          {...enter}
          onSubmit={(e) => {
            e.preventDefault();
            if (reason) return;
            void actions.saveCurrent(name.trim()).then((ok) => ok && setName(''));
          }}
        >
          <Group gap={4} wrap="nowrap">
            <TextInput
              size="xs"
              flex={1}
              value={name}
              placeholder="Name for this filter"
              aria-label="Preset name"
              data-testid="preset-name-input"
              maxLength={PRESET_NAME_MAX}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button
              type="submit"
              size="xs"
              variant="default"
              data-testid="preset-save"
              disabled={Boolean(reason)}
              title={reason ?? 'Save the current filter as a preset'}
            >
              Save
            </Button>
          </Group>
          {reason && name.trim() && (
            <Text c="red" fz="xs" mt={2} data-testid="preset-save-reason">
              {reason}
            </Text>
          )}
        </Box>
        {active && (
          <Button
            size="xs"
            variant="light"
            data-testid="preset-update"
            disabled={!check.valid}
            title={`Update “${active.name}” with the current filter`}
            onClick={() => void actions.overwrite(active.id, active.name)}
            styles={{ label: { display: 'flex', minWidth: 0 } }}
          >
            <span style={{ flex: 'none' }}>Update “</span>
            <span
              data-testid="preset-update-name"
              style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
            >
              {active.name}
            </span>
            <span style={{ flex: 'none' }}>”</span>
          </Button>
        )}
        {presets.length > 0 && (
          <TextInput
            size="xs"
            value={query}
            placeholder="Search presets"
            aria-label="Search presets"
            data-testid="presets-search"
            leftSection={<IconSearch {...ICON} />}
            rightSection={
              query ? (
                <CloseButton size="sm" aria-label="Clear the search" onClick={() => actions.setQuery('')} />
              ) : undefined
            }
            onChange={(e) => actions.setQuery(e.currentTarget.value)}
          />
        )}
        {error && (
          <Box pos="relative">
            <ErrorMessage error={error} testId="presets-error" />
            <CloseButton
              size="sm"
              pos="absolute"
              top={4}
              right={4}
              aria-label="Dismiss"
              data-testid="presets-error-dismiss"
              onClick={actions.dismissError}
            />
          </Box>
        )}
        {setAside && (
          <Note color="orange" role="alert" testId="presets-set-aside" onDismiss={actions.dismissSetAside}>
            {describeSetAside(setAside)}
          </Note>
        )}
        {lastImport && (
          <Note
            color="blue"
            role="status"
            testId="presets-import-report"
            onDismiss={actions.dismissImportReport}
          >
            Imported {lastImport.imported} preset{lastImport.imported === 1 ? '' : 's'}.
            {lastImport.skipped.length > 0 && (
              // A file with hundreds of bad entries must not push the rest of the list out of view.
              <Box
                component="ul"
                data-testid="presets-import-skipped"
                mah="8em"
                pl="md"
                my={4}
                style={{ overflowY: 'auto' }}
              >
                {lastImport.skipped.map((s, i) => (
                  // Skipped names can repeat (two entries called the same), so the position is the key.
                  <li key={i}>
                    Skipped “{s.name}”: {s.reason}
                  </li>
                ))}
              </Box>
            )}
          </Note>
        )}
        <ScrollArea flex={1} mih={0} type="auto" offsetScrollbars>
          <Box
            component="ol"
            data-testid="presets-list"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            onDragOver={(e) => {
              if (!dragId) return;
              e.preventDefault();
              if (e.target === e.currentTarget) setDropIndex(presets.length);
            }}
            onDrop={(e) => {
              e.preventDefault();
              drop(dropIndex ?? presets.length);
            }}
          >
            {shown.map(({ preset: p, index }) => (
              <PresetRow
                key={p.id}
                id={p.id}
                name={p.name}
                index={index}
                count={presets.length}
                active={p.id === activeId}
                renaming={p.id === renamingId}
                draggable={canDrag}
                dropBefore={dragId !== null && dropIndex === index}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', p.name);
                  setDragId(p.id);
                }}
                onDragOver={(e) => {
                  if (!dragId) return;
                  e.preventDefault();
                  e.stopPropagation();
                  const box = e.currentTarget.getBoundingClientRect();
                  setDropIndex(e.clientY < box.top + box.height / 2 ? index : index + 1);
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  drop(dropIndex ?? index);
                }}
                onDragEnd={() => {
                  setDragId(null);
                  setDropIndex(null);
                }}
              />
            ))}
          </Box>
          {loaded && presets.length === 0 && (
            <Text c="dimmed" fz="sm" data-testid="presets-empty">
              No presets yet. Build a filter, name it above and save it to find it here.
            </Text>
          )}
          {presets.length > 0 && shown.length === 0 && (
            <Text c="dimmed" fz="sm" data-testid="presets-none-match">
              No preset name holds “{query.trim()}”.
            </Text>
          )}
        </ScrollArea>
      </Stack>
    </Paper>
  );
}
