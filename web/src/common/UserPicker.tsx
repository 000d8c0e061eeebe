import { useId, useMemo, useState } from 'react';
import { Checkbox, FormControl, TextInput } from '@primer/react';
import { SearchIcon } from '@primer/octicons-react';
import styles from './UserPicker.module.css';

export interface UserPickerProps {
  /** Label of the whole picker, e.g. 'Add users'. */
  label: string;
  /** Users that can be picked; those already in the list are left out by the caller (spec 001 §5). */
  options: readonly string[];
  chosen: ReadonlySet<string>;
  onChosenChange: (chosen: Set<string>) => void;
}

/** A searchable multi-select of users: one checkbox per e-mail, so it works from the keyboard. */
export function UserPicker({ label, options, chosen, onChosenChange }: UserPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? options.filter((o) => o.toLowerCase().includes(needle)) : options;
  }, [options, search]);

  function toggle(value: string) {
    const next = new Set(chosen);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    onChosenChange(next);
  }

  return (
    <fieldset className={styles.picker} aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`} className={styles.legend}>
        {label}
      </legend>
      <TextInput
        aria-label={`Search ${label}`}
        placeholder="Search users"
        leadingVisual={SearchIcon}
        size="small"
        block
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div className={styles.options}>
        {shown.length === 0 ? <p className={styles.none}>{options.length === 0 ? 'No users to add' : 'No users match'}</p> : null}
        {shown.map((o) => (
          <FormControl key={o} layout="horizontal">
            <Checkbox checked={chosen.has(o)} onChange={() => toggle(o)} />
            <FormControl.Label className={styles.option}>{o}</FormControl.Label>
          </FormControl>
        ))}
      </div>
    </fieldset>
  );
}
