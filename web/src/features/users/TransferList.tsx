import { useMemo, useState } from 'react';
import { Button, Checkbox, FormControl, TextInput } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from '@primer/octicons-react';
import styles from './TransferList.module.css';

export interface TransferCustomer {
  id: string;
  name: string;
  /** Entity name, 'No Entity' when none. */
  group: string;
}

export interface TransferListProps {
  customers: readonly TransferCustomer[];
  granted: readonly string[];
  onGrantedChange: (ids: string[]) => void;
  error?: string;
}

/**
 * 'All customers' → 'Grant access', grouped by entity, with a search box (spec 001 §2.7). Each side has
 * checkboxes; the arrow buttons move the ticked customers across.
 */
export function TransferList({ customers, granted, onGrantedChange, error }: TransferListProps) {
  const [search, setSearch] = useState('');
  const [leftTicked, setLeftTicked] = useState<Set<string>>(new Set());
  const [rightTicked, setRightTicked] = useState<Set<string>>(new Set());
  const grantedSet = useMemo(() => new Set(granted), [granted]);
  const needle = search.trim().toLowerCase();
  const matches = (c: TransferCustomer) => !needle || c.name.toLowerCase().includes(needle) || c.group.toLowerCase().includes(needle);
  const available = customers.filter((c) => !grantedSet.has(c.id) && matches(c));
  const chosen = customers.filter((c) => grantedSet.has(c.id));

  function grant() {
    onGrantedChange([...granted, ...available.filter((c) => leftTicked.has(c.id)).map((c) => c.id)]);
    setLeftTicked(new Set());
  }
  function revoke() {
    onGrantedChange(granted.filter((id) => !rightTicked.has(id)));
    setRightTicked(new Set());
  }

  return (
    <div className={styles.wrapper}>
      <TextInput
        aria-label="Search customers"
        placeholder="Search customers"
        leadingVisual={SearchIcon}
        size="small"
        className={styles.search}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div className={styles.transfer} role="group" aria-label="Customer access" aria-describedby={error ? 'transfer-error' : undefined}>
        <Side title="All customers" customers={available} ticked={leftTicked} onTickedChange={setLeftTicked} empty="No customers" />
        <div className={styles.buttons}>
          <Button aria-label="Grant access to the ticked customers" trailingVisual={ChevronRightIcon} disabled={leftTicked.size === 0} onClick={grant}>
            Grant
          </Button>
          <Button aria-label="Remove access to the ticked customers" leadingVisual={ChevronLeftIcon} disabled={rightTicked.size === 0} onClick={revoke}>
            Remove
          </Button>
        </div>
        <Side title="Grant access" customers={chosen} ticked={rightTicked} onTickedChange={setRightTicked} empty="No customer granted yet" />
      </div>
      {error ? (
        <p id="transfer-error" role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Side({
  title,
  customers,
  ticked,
  onTickedChange,
  empty,
}: {
  title: string;
  customers: readonly TransferCustomer[];
  ticked: ReadonlySet<string>;
  onTickedChange: (s: Set<string>) => void;
  empty: string;
}) {
  const groups = useMemo(() => {
    const map = new Map<string, TransferCustomer[]>();
    for (const c of [...customers].sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name))) {
      map.set(c.group, [...(map.get(c.group) ?? []), c]);
    }
    return [...map.entries()];
  }, [customers]);
  const toggle = (id: string) => {
    const next = new Set(ticked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onTickedChange(next);
  };
  return (
    <fieldset className={styles.list}>
      <legend className={styles.legend}>
        {title} ({customers.length})
      </legend>
      {groups.length === 0 ? <p className={styles.muted}>{empty}</p> : null}
      {groups.map(([group, items]) => (
        <div key={group} role="group" aria-label={group} className={styles.group}>
          <div className={styles.groupTitle} aria-hidden="true">
            {group}
          </div>
          {items.map((c) => (
            <FormControl key={c.id} layout="horizontal">
              <Checkbox checked={ticked.has(c.id)} onChange={() => toggle(c.id)} />
              <FormControl.Label className={styles.option}>{c.name}</FormControl.Label>
            </FormControl>
          ))}
        </div>
      ))}
    </fieldset>
  );
}
