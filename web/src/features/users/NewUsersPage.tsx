import { useState } from 'react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page } from '../../common/Page.tsx';
import { MessageDialog } from '../../common/MessageDialog.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { UserForm } from './UserForm.tsx';
import { EMAIL_EXISTS_TITLE, existingEmails, parseEmailList, validateNewUsers } from './user-form.ts';
import { useInviteUsersMutation } from './usersApi.ts';

type Failure = { kind: 'exists'; emails: string[] } | { kind: 'error'; message: string };

/** Invites users: role, comma-separated e-mails, customers to grant (spec 001 §2.7, §5, §8). */
export function NewUsersPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const [invite, { isLoading }] = useInviteUsersMutation();
  const [failure, setFailure] = useState<Failure | null>(null);

  return (
    <Page title={route.title}>
      <UserForm
        mode="new"
        initial={{ role: '', emails: '', customers: [] }}
        validate={(v) => validateNewUsers(v.role, v.emails, v.customers)}
        busy={isLoading}
        onCancel={() => navigate('/usermanagement')}
        onSubmit={async (v) => {
          const result = await invite({ role: v.role, emails: parseEmailList(v.emails).join(','), customers: v.customers });
          if ('error' in result) {
            const detail = errorDetail(result.error);
            const exists = existingEmails(detail);
            setFailure(exists ? { kind: 'exists', emails: exists } : { kind: 'error', message: detail ?? 'Error inviting users' });
            return;
          }
          show({ message: `${result.data.invited.length} user(s) invited with success`, variant: 'success' });
          navigate('/usermanagement');
        }}
      />
      {failure?.kind === 'exists' ? (
        <MessageDialog title={EMAIL_EXISTS_TITLE} onClose={() => setFailure(null)}>
          <p style={{ marginTop: 0 }}>The following e-mails already exist: {failure.emails.join(', ')}.</p>
          <p style={{ marginBottom: 0 }}>Please use a different e-mail.</p>
        </MessageDialog>
      ) : null}
      {failure?.kind === 'error' ? (
        <MessageDialog title="Error" onClose={() => setFailure(null)}>
          {failure.message}
        </MessageDialog>
      ) : null}
    </Page>
  );
}
