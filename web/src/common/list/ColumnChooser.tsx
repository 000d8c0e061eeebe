import { ActionList, ActionMenu } from '@primer/react';
import { ColumnsIcon } from '@primer/octicons-react';

/** The 'Columns' menu: ticks the columns shown; the last visible one cannot be hidden. */
export function ColumnChooser({
  columns,
  hidden,
  onChange,
}: {
  columns: readonly { id: string; header: string }[];
  hidden: ReadonlySet<string>;
  onChange: (hidden: ReadonlySet<string>) => void;
}) {
  return (
    <ActionMenu>
      <ActionMenu.Button leadingVisual={ColumnsIcon}>Columns</ActionMenu.Button>
      <ActionMenu.Overlay>
        <ActionList selectionVariant="multiple" aria-label="Columns shown">
          {columns.map((c) => {
            const shown = !hidden.has(c.id);
            const last = shown && columns.length - hidden.size === 1;
            return (
              <ActionList.Item
                key={c.id}
                selected={shown}
                disabled={last}
                onSelect={(e) => {
                  // Keep the menu open so several columns can be toggled in one go.
                  e.preventDefault();
                  const next = new Set(hidden);
                  if (shown) next.add(c.id);
                  else next.delete(c.id);
                  onChange(next);
                }}
              >
                {c.header}
              </ActionList.Item>
            );
          })}
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}
