/**
 * Atlassian Document Format (https://developer.atlassian.com/cloud/jira/platform/apis/document/structure/):
 * Jira Cloud REST v3 takes and gives descriptions and comment bodies as ADF, the portal keeps plain text.
 */
export interface AdfNode {
  type: string;
  text?: string;
  version?: number;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
}

/** Plain text → ADF: one paragraph per line (empty lines become empty paragraphs). */
export function textToAdf(text: string): AdfNode {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return {
    type: 'doc',
    version: 1,
    content: lines.map((line) => (line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph', content: [] })),
  };
}

const BLOCKS = new Set(['paragraph', 'heading', 'codeBlock', 'blockquote', 'listItem', 'rule', 'panel', 'tableRow']);

/** ADF → plain text: text nodes, hard breaks and one line per block; marks and layout are dropped. */
export function adfToText(node: unknown): string {
  if (node === null || node === undefined) return '';
  if (typeof node === 'string') return node;
  const out: string[] = [];
  const walk = (n: AdfNode) => {
    if (n.type === 'text') out.push(n.text ?? '');
    else if (n.type === 'hardBreak') out.push('\n');
    else if (n.type === 'mention' || n.type === 'emoji') out.push(String(n.attrs?.text ?? ''));
    for (const c of n.content ?? []) walk(c);
    if (BLOCKS.has(n.type)) out.push('\n');
  };
  walk(node as AdfNode);
  return out.join('').replace(/\n$/, '');
}
