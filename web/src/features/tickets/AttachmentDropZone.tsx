import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Button, IconButton } from '@primer/react';
import { FileIcon, UploadIcon, XIcon } from '@primer/octicons-react';
import { clsx } from 'clsx';
import { ACCEPT_ATTRIBUTE, attachmentProblem } from './ticket-rules.ts';
import styles from './tickets.module.css';

export interface AttachmentDropZoneProps {
  /** The files chosen so far. */
  files: readonly File[];
  onChange: (files: File[]) => void;
  /** How many files may be chosen in all (10 per ticket minus those it already has). */
  max: number;
  disabled?: boolean;
  /** Names the zone for assistive technology, e.g. 'Attachments'. */
  label: string;
}

const sizeText = (bytes: number) => (bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`);

/**
 * Files by drag and drop (spec 000 §2), with a "Choose files" button for keyboard users. Each file is
 * checked for type and size on arrival; refused ones are explained and left out.
 */
export function AttachmentDropZone({ files, onChange, max, disabled = false, label }: AttachmentDropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  // A file dropped just beside the zone would make the browser open it and leave the form: refuse those drops.
  useEffect(() => {
    const refuse = (e: globalThis.DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);

  async function add(incoming: readonly File[]) {
    const found: string[] = [];
    const next = [...files];
    for (const file of incoming) {
      const problem = await attachmentProblem(file);
      if (problem) found.push(problem);
      else if (next.length >= max) found.push(`${file.name}: at most ${max} attachments`);
      else next.push(file);
    }
    setProblems(found);
    if (next.length !== files.length) onChange(next);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void add(Array.from(event.dataTransfer.files));
  }

  const full = files.length >= max;
  return (
    <div className={styles.dropArea}>
      <div
        role="group"
        aria-label={label}
        aria-describedby={hintId}
        data-testid="attachment-drop-zone"
        className={clsx(styles.dropZone, dragging && styles.dropZoneActive)}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <UploadIcon size={24} />
        <span id={hintId}>
          Drag and drop files here: up to {max}, jpeg, png, bmp, plain text, pdf, doc or docx, at most 5,000,000 bytes each
        </span>
        <Button size="small" disabled={disabled || full} onClick={() => inputRef.current?.click()}>
          Choose files
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          accept={ACCEPT_ATTRIBUTE}
          data-testid="attachment-file-input"
          onChange={(e) => {
            const picked = Array.from(e.target.files ?? []);
            e.target.value = '';
            void add(picked);
          }}
        />
      </div>
      {problems.length > 0 ? (
        <ul className={styles.problems} role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {files.length > 0 ? (
        <ul className={styles.fileList} aria-label="Chosen files">
          {files.map((file, i) => (
            <li key={`${file.name}-${i}`} className={styles.fileItem}>
              <FileIcon />
              <span className={styles.fileName}>{file.name}</span>
              <span className={styles.muted}>{sizeText(file.size)}</span>
              <IconButton
                icon={XIcon}
                size="small"
                variant="invisible"
                aria-label={`Remove ${file.name}`}
                disabled={disabled}
                onClick={() => onChange(files.filter((_, j) => j !== i))}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
