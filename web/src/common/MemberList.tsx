import { useMemo, useState } from 'react';
import { Button } from '@primer/react';
import { TrashIcon } from '@primer/octicons-react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ListTable, type ListColumn } from './list/ListTable.tsx';
import { UserPicker } from './UserPicker.tsx';
import styles from './MemberList.module.css';

export type MemberChange = { action: 'add'; users: string[] } | { action: 'remove'; users: string[] };

export interface MemberListProps {
  /** Title of the list, e.g. 'User Access' or 'Entity Admin'. */
  title: string;
  members: readonly string[];
  /** Every user that could be added; members are left out of the pick list here. */
  users: readonly string[];
  /** Saves the change; resolves true on success (the caller shows messages and reloads). */
  onChange: (change: MemberChange) => Promise<boolean>;
  /** Read-only: no selection, no adding. */
  readOnly?: boolean;
}

const COLUMNS: ListColumn<string>[] = [{ id: 'email', header: 'Email', text: (u) => u, width: 'minmax(8rem, 1fr)' }];

/**
 * A list of users with selection and delete, an add-user multi-select and the 'Please confirm'
 * dialog (spec 001 §2.4, §2.6, §4): entity admins and the customer's three user lists.
 */
export function MemberList({ title, members, users, onChange, readOnly = false }: MemberListProps) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<MemberChange | null>(null);
  const [busy, setBusy] = useState(false);
  const sorted = useMemo(() => [...members].sort(), [members]);
  const options = useMemo(() => users.filter((u) => !members.includes(u)).sort(), [users, members]);
  const selectedMembers = sorted.filter((m) => selected.has(m));

  async function submit() {
    if (!pending) return;
    setBusy(true);
    const ok = await onChange(pending);
    setBusy(false);
    setPending(null);
    if (ok) {
      if (pending.action === 'add') setChosen(new Set());
      else setSelected(new Set());
    }
  }

  return (
    <div className={styles.layout}>
      <ListTable
        title={title}
        rows={sorted}
        rowId={(u) => u}
        columns={COLUMNS}
        filter="client"
        selection={readOnly ? undefined : { selected, onChange: setSelected }}
        emptyText="No users"
        actions={
          readOnly ? null : (
            <Button
              variant="danger"
              leadingVisual={TrashIcon}
              disabled={selectedMembers.length === 0}
              onClick={() => setPending({ action: 'remove', users: selectedMembers })}
            >
              Delete
            </Button>
          )
        }
      />
      {readOnly ? null : (
        <div className={styles.add}>
          <UserPicker label={`Add to ${title}`} options={options} chosen={chosen} onChosenChange={setChosen} />
          <Button disabled={chosen.size === 0} onClick={() => setPending({ action: 'add', users: [...chosen].sort() })}>
            Add
          </Button>
        </div>
      )}
      {pending ? (
        <ConfirmDialog busy={busy} onSubmit={() => void submit()} onCancel={() => setPending(null)}>
          <p className={styles.confirmText}>
            {pending.action === 'add' ? `Add the following users to ${title}:` : `Remove the following users from ${title}:`}
          </p>
          <ul>
            {pending.users.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ul>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
