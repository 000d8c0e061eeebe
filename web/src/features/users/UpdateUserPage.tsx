import { useState } from 'react';
import { useLocation } from 'wouter';
import { routeParam } from '../../common/route-param.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { MessageDialog } from '../../common/MessageDialog.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { UserForm } from './UserForm.tsx';
import { validateUpdateUser } from './user-form.ts';
import { Button } from '@primer/react';
import { MailIcon, SignOutIcon } from '@primer/octicons-react';
import { useEndUserSessionsMutation, useGetUserQuery, useResendInvitationMutation, useUpdateUserMutation } from './usersApi.ts';
import { useUserEvents } from './useUserEvents.ts';

const sessionsEnded = (n: number) => (n === 0 ? 'No open session' : n === 1 ? 'Ended 1 session' : `Ended ${n} sessions`);

/** Role, e-mail and customer access of one user (spec 001 §2.7, §4, §5); an admin can end their sessions. */
export function UpdateUserPage({ route, params }: PageProps) {
  useUserEvents();
  const id = routeParam(params.id);
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { data: user, isLoading, error } = useGetUserQuery(id);
  const [update, { isLoading: saving }] = useUpdateUserMutation();
  const [resend, { isLoading: resending }] = useResendInvitationMutation();
  const [endSessions, { isLoading: ending }] = useEndUserSessionsMutation();
  const [failure, setFailure] = useState<string | null>(null);

  if (isLoading) return <PageLoading />;
  if (!user) {
    return (
      <Page title={route.title}>
        <PageMessage>{errorDetail(error) ?? 'User not found'}</PageMessage>
      </Page>
    );
  }

  return (
    <Page title={route.title} subtitle={user.email}>
      {user.invitation_pending ? (
        <div>
          <Button
            leadingVisual={MailIcon}
            loading={resending}
            onClick={async () => {
              const result = await resend(user.id);
              if ('error' in result) setFailure(errorDetail(result.error) ?? 'Error sending the invitation');
              else show({ message: `Invitation sent to ${result.data.email}`, variant: 'success' });
            }}
          >
            Send the invitation again
          </Button>
        </div>
      ) : null}
      <div>
        <Button
          leadingVisual={SignOutIcon}
          loading={ending}
          onClick={async () => {
            const result = await endSessions(user.id);
            if ('error' in result) setFailure(errorDetail(result.error) ?? 'Error ending the sessions');
            else show({ message: `${sessionsEnded(result.data.ended)} of ${result.data.email}`, variant: 'success' });
          }}
        >
          End all sessions
        </Button>
      </div>
      <UserForm
        key={user.id}
        mode="update"
        initial={{ role: user.role ?? '', emails: user.email, customers: user.customers.map((c) => c.id) }}
        validate={(v) => validateUpdateUser(v.role, v.emails, v.customers)}
        busy={saving}
        onCancel={() => navigate('/usermanagement')}
        onSubmit={async (v) => {
          const result = await update({ id: user.id, role: v.role, email: v.emails.trim().toLowerCase(), customers: v.customers });
          if ('error' in result) {
            setFailure(errorDetail(result.error) ?? 'Error updating user');
            return;
          }
          show({ message: 'User updated with success', variant: 'success' });
          navigate('/usermanagement');
        }}
      />
      {failure ? (
        <MessageDialog title="Error" onClose={() => setFailure(null)}>
          {failure}
        </MessageDialog>
      ) : null}
    </Page>
  );
}
