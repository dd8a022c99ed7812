/**
 * What a grid with no row on screen says, over its body: ours, not ag-grid's "No Rows To Show", so
 * every grid says it the same way and tells an empty answer from one its filters have emptied.
 */
export function GridEmptyOverlay({ testId, narrowed }: { testId: string; narrowed: boolean }) {
  return (
    <div
      data-testid={testId}
      role="status"
      style={{
        position: 'absolute',
        inset: '48px 0 0 0',
        display: 'grid',
        placeItems: 'center',
        zIndex: 2,
        pointerEvents: 'none',
        opacity: 0.8,
      }}
    >
      {narrowed ? 'No rows match the filters' : 'This dataset has no rows'}
    </div>
  );
}
