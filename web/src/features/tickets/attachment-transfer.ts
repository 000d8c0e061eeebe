import { useCallback } from 'react';
import { errorDetail } from '../../common/api-error.ts';
import type { TicketAttachment } from '@cc/shared/schemas/tickets.ts';
import { useSignedUploadUrlMutation } from './ticketsApi.ts';

/**
 * Sends a file to a signed upload address. No bearer token: the address carries its own signature,
 * and a foreign store (Google Cloud Storage) would refuse an unexpected Authorization header. Always
 * raw bytes (application/octet-stream): the server types a file by its content, and a text/plain body
 * would be parsed as text by the api instead of stored as bytes.
 */
async function putToSignedUrl(signedUrl: string, file: File): Promise<void> {
  const res = await fetch(signedUrl, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  if (!res.ok) {
    let detail = `Upload of ${file.name} failed (${res.status})`;
    try {
      const body = (await res.json()) as { detail?: unknown };
      if (typeof body.detail === 'string') detail = body.detail;
    } catch {
      // Not JSON (e.g. a storage XML error): keep the generic text.
    }
    throw new Error(detail);
  }
}

/**
 * Uploads files through signed URLs (`GET /v1/jira/signed_url?filename=` then PUT) and resolves to
 * their generated names, in order. Rejects with the server's message on the first failure.
 */
export function useUploadFiles() {
  const [signUpload] = useSignedUploadUrlMutation();
  return useCallback(
    async (files: readonly File[]): Promise<string[]> =>
      Promise.all(
        files.map(async (file) => {
          const signed = await signUpload(file.name);
          if ('error' in signed) throw new Error(errorDetail(signed.error) ?? `Upload of ${file.name} failed`);
          await putToSignedUrl(signed.data.signed_url, file);
          return signed.data.generated_name;
        }),
      ),
    [signUpload],
  );
}

/** Fetches an attachment as a binary blob and hands it to the browser as a download named like the file. */
export function useDownloadAttachment() {
  return useCallback(
    async (attachment: TicketAttachment): Promise<void> => {
      const url = new URL(attachment.url, window.location.origin);
      // Our own api gets the session cookie; anyone else's address must not receive it (credentials: same-origin).
      const res = await fetch(url, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`Download of ${attachment.name} failed (${res.status})`);
      const blob = await res.blob();
      const href = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = href;
      a.download = attachment.name;
      document.body.append(a);
      a.click();
      a.remove();
      // Give the browser time to start the download before the blob goes.
      window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
    },
    [],
  );
}
