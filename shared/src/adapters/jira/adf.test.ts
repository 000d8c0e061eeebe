import t from 'tap';
import { adfToText, textToAdf } from './adf.ts';
import { parsePriorityMap } from './real.ts';

t.test('plain text ↔ ADF', async (t) => {
  t.same(textToAdf('a\r\n\nb'), {
    type: 'doc',
    version: 1,
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'a' }] },
      { type: 'paragraph', content: [] },
      { type: 'paragraph', content: [{ type: 'text', text: 'b' }] },
    ],
  });
  t.equal(adfToText(textToAdf('line 1\nline 2')), 'line 1\nline 2');
  const jira = {
    type: 'doc',
    version: 1,
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'Hi ' }, { type: 'mention', attrs: { text: '@Alice' } }, { type: 'hardBreak' }, { type: 'text', text: 'done', marks: [{ type: 'strong' }] }] },
      { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] }] },
    ],
  };
  t.equal(adfToText(jira), 'Hi @Alice\ndone\none\n');
  t.equal(adfToText(null), '');
  t.equal(adfToText('already text'), 'already text');
});

t.test('priority map', async (t) => {
  t.same(parsePriorityMap('P1=Highest, P2=High,P3=Medium,P4=Low'), { P1: 'Highest', P2: 'High', P3: 'Medium', P4: 'Low' });
  t.same(parsePriorityMap('P2=Urgent,P9=x,junk'), { P1: 'P1', P2: 'Urgent', P3: 'P3', P4: 'P4' }, 'unknown keys are ignored, missing ones keep the portal name');
});
