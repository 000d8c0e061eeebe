import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Avatar, Dialog, Select } from '@primer/react';
import { clsx } from 'clsx';
import { ThreeBarsIcon, XIcon } from '@primer/octicons-react';
import { Link, useLocation } from 'wouter';
import { ROLE_LABELS } from '@cc/shared/permissions.ts';
import type { Claims } from '@cc/shared/claims.ts';
import { useAppSelector } from '../hooks.ts';
import { isManagementPath } from '../routes.ts';
import { useBillingAccounts, useSelectedCustomer } from '../selection/useCustomerContext.ts';
import { useSearchCustomersQuery } from '../selection/customerApi.ts';
import { useSignOut } from '../../features/session/useSignOut.ts';
import styles from './Header.module.css';

// Loaded when opened: its form controls would otherwise ride in the entry chunk every screen downloads.
const ChangePasswordDialog = lazy(() => import('../../features/session/ChangePasswordDialog.tsx').then((m) => ({ default: m.ChangePasswordDialog })));

/**
 * The header bar (spec 001 §1, §2.2): product name, customer picker, billing account picker and the
 * avatar dialog with Logout. Both pickers are hidden on management pages; the billing account picker
 * is also hidden for customerViewer.
 */
export function Header({ menu }: { menu?: { open: boolean; controls: string; onToggle: () => void } }) {
  const [location] = useLocation();
  const claims = useAppSelector((s) => s.session.claims);
  const management = isManagementPath(location);
  const showBilling = !management && claims?.role !== 'customerViewer';

  return (
    <header className={styles.header}>
      {menu ? (
        // a plain button: the header is dark, and it keeps the header's own contrast (Primer's invisible button is for light grounds)
        <button type="button" className={styles.menuButton} aria-label="Menu" aria-expanded={menu.open} aria-controls={menu.controls} onClick={menu.onToggle}>
          {menu.open ? <XIcon size={20} /> : <ThreeBarsIcon size={20} />}
        </button>
      ) : null}
      <Link href="/" className={styles.brand}>
        CommandCenter
      </Link>
      {!management ? (
        <div className={styles.pickers}>
          <CustomerPicker />
          {showBilling ? <BillingAccountPicker /> : null}
        </div>
      ) : null}
      {claims ? <AccountMenu claims={claims} /> : null}
    </header>
  );
}

function CustomerPicker() {
  const id = useId();
  const { customers, partial, selected, select } = useSelectedCustomer();
  if (partial) return <SearchingCustomerPicker />;
  return (
    <div className={styles.picker}>
      <label htmlFor={id} className={styles.pickerLabel}>
        Customer
      </label>
      <Select id={id} className={styles.select} value={selected?.id ?? ''} onChange={(e) => select(e.target.value)}>
        {customers.map((c) => (
          <Select.Option key={c.id} value={c.id}>
            {c.name}
          </Select.Option>
        ))}
      </Select>
    </div>
  );
}

/**
 * More customers than the claims name (an admin with hundreds): a search field over `GET /v1/auth/me/customers`
 * beside the list, which holds the matches (the claims' first customers while the field is empty) and the selection.
 */
function SearchingCustomerPicker() {
  const id = useId();
  const { customers, selected, select } = useSelectedCustomer();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), 250);
  const { currentData } = useSearchCustomersQuery(search, { skip: search === '' });
  const found = search === '' ? customers : (currentData?.items ?? customers);
  const options = selected && !found.some((c) => c.id === selected.id) ? [selected, ...found] : found;
  return (
    <div className={styles.picker}>
      <label htmlFor={id} className={styles.pickerLabel}>
        Customer
      </label>
      <input
        type="search"
        aria-label="Find customer"
        placeholder="Find customer"
        className={styles.search}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <Select id={id} className={styles.select} value={selected?.id ?? ''} onChange={(e) => select(e.target.value)}>
        {options.map((c) => (
          <Select.Option key={c.id} value={c.id}>
            {c.name}
          </Select.Option>
        ))}
      </Select>
    </div>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function BillingAccountPicker() {
  const id = useId();
  const { accounts, active, select } = useBillingAccounts();
  if (accounts.length === 0) return null;
  return (
    <div className={clsx(styles.picker, styles.accountPicker)}>
      <label htmlFor={id} className={styles.pickerLabel}>
        Billing account
      </label>
      <Select id={id} className={styles.select} value={active ?? ''} onChange={(e) => select(e.target.value)}>
        {accounts.map((a) => (
          <Select.Option key={a} value={a}>
            {a}
          </Select.Option>
        ))}
      </Select>
    </div>
  );
}

function Initial({ email }: { email: string }) {
  return <span aria-hidden="true">{email.slice(0, 1).toUpperCase()}</span>;
}

/** The avatar button and its dialog: who is signed in, Change password, Logout, and Sign out everywhere (every device). */
function AccountMenu({ claims }: { claims: Claims }) {
  const [open, setOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [, navigate] = useLocation();
  const signOut = useSignOut();
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <div className={styles.account}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.avatarButton}
        aria-label="Account"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        {claims.picture ? <Avatar src={claims.picture} alt="" size={32} /> : <Initial email={claims.email} />}
      </button>
      {open ? (
        <Dialog
          title="Account"
          onClose={() => setOpen(false)}
          returnFocusRef={buttonRef}
          footerButtons={[
            { content: 'Close', onClick: () => setOpen(false) },
            {
              content: 'Change password',
              onClick: () => {
                setOpen(false);
                setChangingPassword(true);
              },
            },
            {
              content: 'Sign out everywhere',
              onClick: () => {
                setOpen(false);
                void signOut({ everywhere: true });
              },
            },
            {
              content: 'Logout',
              buttonType: 'danger',
              onClick: () => {
                setOpen(false);
                navigate('/logout');
              },
            },
          ]}
        >
          <div className={styles.identity}>
            {claims.picture ? <Avatar src={claims.picture} alt="" size={40} /> : null}
            <div>
              <p className={styles.email}>{claims.email}</p>
              <p className={styles.role}>{ROLE_LABELS[claims.role] ?? claims.role}</p>
            </div>
          </div>
        </Dialog>
      ) : null}
      {changingPassword ? (
        <Suspense fallback={null}>
          <ChangePasswordDialog onClose={() => setChangingPassword(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
