import t from 'tap';
import { EMPTY_LABEL, visibleLabel } from './label-text.ts';
import { chartTitle, tabsFor } from './tabs.ts';

t.test('white space at the ends of a label is drawn, so keys stay distinguishable', async (t) => {
  t.equal(visibleLabel('org'), 'org');
  t.equal(visibleLabel(' org'), '␣org', 'the FOCUS sample key');
  t.equal(visibleLabel('org  '), 'org␣␣', 'one mark per character');
  t.equal(visibleLabel('\torg'), '␣org', 'a tab too');
  t.equal(visibleLabel('cost center'), 'cost center', 'inner spaces read as spaces');
  t.equal(visibleLabel(''), EMPTY_LABEL);
  t.not(visibleLabel(' org'), visibleLabel('org'));
});

t.test('the chart title shows the label key faithfully', async (t) => {
  const [total] = tabsFor('projectLabel', 'gcp');
  t.equal(chartTitle(total, { projectLabel: ' org' }), 'Total with Project Label (␣org)');
  t.equal(chartTitle(total, { projectLabel: 'org' }), 'Total with Project Label (org)');
});
