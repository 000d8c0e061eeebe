import { Button } from '@primer/react';
import { IssueOpenedIcon } from '@primer/octicons-react';

/** 'Raise Ticket (n)' over a list's selected rows; shared by the asset and recommendation lists. */
export function RaiseTicketButton({ count, onClick }: { count: number; onClick: () => void }) {
  return (
    <Button leadingVisual={IssueOpenedIcon} disabled={count === 0} onClick={onClick}>
      {`Raise Ticket${count ? ` (${count})` : ''}`}
    </Button>
  );
}
