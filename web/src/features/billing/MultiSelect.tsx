import { useId } from 'react';
import { ActionList, ActionMenu } from '@primer/react';
import styles from './BillingDashboard.module.css';

export interface MultiSelectOption {
  value: string;
  label: string;
}

export interface MultiSelectProps {
  label: string;
  options: readonly MultiSelectOption[];
  /** Chosen values; empty means every option (shown as the placeholder). */
  value: readonly string[];
  onChange: (value: string[]) => void;
  placeholder?: string;
  disabled?: boolean;
}

/**
 * A labelled multi-select whose empty choice means "all" (spec 000 §2: Projects, placeholder
 * 'All Selected'). The menu stays open while several items are toggled; Escape closes it.
 */
export function MultiSelect({ label, options, value, onChange, placeholder = 'All Selected', disabled }: MultiSelectProps) {
  const id = useId();
  const chosen = new Set(value);
  const summary =
    value.length === 0
      ? placeholder
      : value.length <= 2
        ? value.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ')
        : `${value.length} selected`;
  return (
    <div className={styles.field}>
      <span id={`${id}-label`} className={styles.fieldLabel}>
        {label}
      </span>
      <ActionMenu>
        <ActionMenu.Button id={`${id}-button`} aria-labelledby={`${id}-label ${id}-button`} disabled={disabled} alignContent="start" className={styles.multiButton}>
          {summary}
        </ActionMenu.Button>
        <ActionMenu.Overlay width="medium" maxHeight="large" overflow="auto">
          <ActionList selectionVariant="multiple" aria-label={label}>
            <ActionList.Item
              selected={value.length === 0}
              onSelect={(e) => {
                e.preventDefault();
                onChange([]);
              }}
            >
              {placeholder}
            </ActionList.Item>
            <ActionList.Divider />
            {options.map((o) => (
              <ActionList.Item
                key={o.value}
                selected={chosen.has(o.value)}
                onSelect={(e) => {
                  e.preventDefault();
                  const next = chosen.has(o.value) ? value.filter((v) => v !== o.value) : [...value, o.value];
                  // Every option picked is the same as all: keep the list empty.
                  onChange(next.length === options.length ? [] : next);
                }}
              >
                {o.label}
              </ActionList.Item>
            ))}
          </ActionList>
        </ActionMenu.Overlay>
      </ActionMenu>
    </div>
  );
}
