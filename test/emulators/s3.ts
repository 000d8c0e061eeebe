/**
 * An S3-compatible server for tests: s3rver (npm), started in this process on a free port over a temporary folder.
 * It knows one access key id (S3RVER) and refuses any other with S3's InvalidAccessKeyId; it does not verify SigV4
 * signatures, so a wrong key is a wrong key id here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, CreateBucketCommand, PutObjectCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
// @ts-expect-error -- s3rver ships no types
import S3rver from 's3rver';

export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3(): Promise<{
  endpoint: string;
  client: S3Client;
  put(bucket: string, key: string, body: string | Buffer): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  createBucket(bucket: string): Promise<void>;
  close(): Promise<void>;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'cc-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_KEY });
  return {
    endpoint,
    client,
    put: async (bucket, key, body) => void (await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))),
    remove: async (bucket, key) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))),
    createBucket: async (bucket) => void (await client.send(new CreateBucketCommand({ Bucket: bucket }))),
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
