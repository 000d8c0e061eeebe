/**
 * What the ticket screens show must be the spec's own words and colours (spec 000 §4, §5, §8):
 * snackbars, messages, status and satisfaction colours, the satisfaction scale, the form's field rules.
 */
import t from 'tap';
import { PRIORITY_MEANINGS } from '@cc/shared/tickets/rules.ts';
import { attachmentProblem, satisfactionText, satisfactionVariant, statusVariant, TICKET_MESSAGES } from './ticket-rules.ts';
import { validateTicket } from './validate-ticket.ts';

t.test('texts are the spec words, verbatim', async (t) => {
  t.same(TICKET_MESSAGES, {
    required: 'This field is required',
    selectScore: 'Please, select satisfaction score',
    toBeProvided: 'To be provided',
    confirmDeleteAttachment: 'Are you sure you want to delete this attachment?',
    downloadFailed: 'Error downloading file',
    commentSaved: 'Comment saved',
    attachmentSaved: 'Attachment saved',
    attachmentDeleted: 'Attachment deleted',
    statusSaved: 'status and comment saved',
    prioritySaved: 'Priority saved',
    satisfactionSaved: 'Satisfaction level saved',
  });
  t.same(PRIORITY_MEANINGS, {
    P1: 'end-user-facing production service entirely down.',
    P2: 'production partially broken or development blocked.',
    P3: 'development partially blocked, or investigating a previous production issue.',
    P4: 'feature requests or questions on using cloud services.',
  });
});

t.test('status colours: Open red, Resolved and Closed green, Cancel grey', async (t) => {
  t.equal(statusVariant('Open'), 'danger');
  t.equal(statusVariant('Resolved'), 'success');
  t.equal(statusVariant('Closed'), 'success');
  t.equal(statusVariant('Cancel'), 'secondary');
  t.equal(statusVariant('In Progress'), 'accent', 'no colour in the spec: blue');
});

t.test('satisfaction scale and colours: 1-2 red, 3 amber, 4-5 green', async (t) => {
  t.same(
    [1, 2, 3, 4, 5].map((s) => [satisfactionText(s), satisfactionVariant(s)]),
    [
      ['Very disappointed', 'danger'],
      ['Disappointed', 'danger'],
      ['Neutral', 'attention'],
      ['Satisfied', 'success'],
      ['Very satisfied', 'success'],
    ],
  );
});

t.test('the new-ticket form: Summary ≤ 100, Priority, Description ≤ 30000, all required', async (t) => {
  t.same(validateTicket({ summary: ' ', priority: '', description: '' }), {
    summary: 'This field is required',
    priority: 'This field is required',
    description: 'This field is required',
  });
  t.same(validateTicket({ summary: 's'.repeat(100), priority: 'P4', description: 'd'.repeat(30_000) }), {});
  t.same(validateTicket({ summary: 's'.repeat(101), priority: 'P5', description: 'd'.repeat(30_001) }), {
    summary: 'Summary must be at most 100 characters',
    priority: 'This field is required',
    description: 'Description must be at most 30000 characters',
  });
});

t.test('a file is checked before upload by size and content, not its name', async (t) => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
  t.equal(await attachmentProblem(new File([png], 'shot.png')), null);
  t.equal(await attachmentProblem(new File([png], 'renamed.exe')), null, 'the name does not matter');
  t.equal(await attachmentProblem(new File([Uint8Array.from([0x4d, 0x5a, 0x90, 0])], 'invoice.pdf')), 'invoice.pdf: Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx');
  t.equal(await attachmentProblem(new File([], 'empty.txt')), 'empty.txt: The file is empty');
  t.equal(await attachmentProblem(new File([new Uint8Array(5_000_001).fill(0x61)], 'big.txt')), 'big.txt: An attachment is at most 5,000,000 bytes');
  t.equal(await attachmentProblem(new File([new Uint8Array(5_000_000).fill(0x61)], 'limit.txt')), null, 'exactly 5,000,000 bytes is allowed');
});
