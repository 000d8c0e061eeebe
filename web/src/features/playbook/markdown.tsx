/**
 * Markdown of playbook documents as React elements: headings, paragraphs, lists, quotes, code, rules, emphasis,
 * inline code and links. Built as elements, never as HTML, so a document cannot inject markup or script (HTML in the
 * text shows as text); links keep only http(s), mailto and in-app paths. Enough for runbooks, with no library to load.
 */
import type { ReactNode } from 'react';

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

/** The document's blocks, line by line. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*$/.test(line)) {
      i++;
    } else if (/^```/.test(line)) {
      const code: string[] = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      i++;
      blocks.push({ kind: 'code', text: code.join('\n') });
    } else if (/^#{1,6}\s/.test(line)) {
      const [, hashes, text] = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)!;
      blocks.push({ kind: 'heading', level: hashes.length, text });
      i++;
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
        let item = lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, '');
        // continuation lines of the item
        for (i++; i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*+]|\d+[.)])\s+/.test(lines[i]); i++) item += ` ${lines[i].trim()}`;
        items.push(item);
      }
      blocks.push({ kind: 'list', ordered, items });
    } else if (/^>/.test(line)) {
      const quote: string[] = [];
      for (; i < lines.length && /^>/.test(lines[i]); i++) quote.push(lines[i].replace(/^>\s?/, ''));
      blocks.push({ kind: 'quote', text: quote.join(' ') });
    } else {
      const para: string[] = [];
      for (; i < lines.length && !/^\s*$/.test(lines[i]) && !/^(#{1,6}\s|```|>|\s*([-*+]|\d+[.)])\s+)/.test(lines[i]); i++) para.push(lines[i].trim());
      blocks.push({ kind: 'paragraph', text: para.join(' ') });
    }
  }
  return blocks;
}

/** A link target that may be followed: web and mail addresses, and paths of this app. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^(https?:|mailto:)/i.test(h)) return h;
  if (h.startsWith('/') && !h.startsWith('//')) return h;
  return null;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

/** Emphasis, inline code and links of one line of text. */
export function renderInline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const token = m[0];
    const k = `${key}-${n++}`;
    if (m[1]) out.push(<code key={k}>{token.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={k}>{renderInline(token.slice(2, -2), k)}</strong>);
    else if (m[3]) out.push(<em key={k}>{renderInline(token.slice(1, -1), k)}</em>);
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token)!;
      const safe = safeHref(href);
      out.push(
        safe ? (
          <a key={k} href={safe} rel="noopener noreferrer" target={safe.startsWith('/') ? undefined : '_blank'}>
            {renderInline(label, k)}
          </a>
        ) : (
          <span key={k}>{renderInline(label, k)}</span>
        ),
      );
    }
    rest = rest.slice(m.index + token.length);
  }
  return out;
}

/** The document as elements; its first heading level is kept (the page's own title is the h1). */
export function Markdown({ source }: { source: string }) {
  return (
    <>
      {parseBlocks(source).map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case 'heading': {
            // the page heading is the h1: document headings start at h2
            const Tag = `h${Math.min(6, b.level + 1)}` as 'h2';
            return <Tag key={k}>{renderInline(b.text, k)}</Tag>;
          }
          case 'paragraph':
            return <p key={k}>{renderInline(b.text, k)}</p>;
          case 'list': {
            const items = b.items.map((item, j) => <li key={j}>{renderInline(item, `${k}-${j}`)}</li>);
            return b.ordered ? <ol key={k}>{items}</ol> : <ul key={k}>{items}</ul>;
          }
          case 'quote':
            return <blockquote key={k}>{renderInline(b.text, k)}</blockquote>;
          case 'code':
            return (
              <pre key={k}>
                <code>{b.text}</code>
              </pre>
            );
          case 'rule':
            return <hr key={k} />;
        }
      })}
    </>
  );
}
