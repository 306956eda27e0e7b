import { z } from "@hono/zod-openapi";

/**
 * A route's destination as the API takes it (docs/operations.md, "Results delivered where partners need them"). The
 * secret is taken once, sealed, and never shown again; the rest is the route's `config`.
 */
export const S3ConfigSchema = z.object({
  endpoint: z.url().max(2048).meta({ description: "S3 호환 저장소의 주소 (예: https://<account>.r2.cloudflarestorage.com, https://s3.ap-northeast-2.amazonaws.com). 공개 주소의 https, 포트는 443이나 8443만 받습니다" }),
  bucket: z.string().min(3).max(63).regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/),
  region: z.string().min(1).max(64).default("auto"),
  accessKeyId: z.string().min(1).max(128),
  prefix: z.string().max(512).regex(/^[^\\\\]*$/).default("").meta({ description: "객체 키 앞에 붙일 경로 (예: collect/). 작업마다 <prefix><job id>/ 아래에 놓입니다" }),
});

export const SftpConfigSchema = z.object({
  host: z.string().min(1).max(253).meta({ description: "SFTP 서버의 이름이나 IP 주소. 공개 주소만 받고, 연결할 때마다 이름이 풀리는 주소도 확인합니다" }),
  port: z.number().int().min(1).max(65535).default(22).meta({ format: "int32" }),
  username: z.string().min(1).max(128),
  directory: z.string().max(512).default("").meta({ description: "올릴 디렉터리. 작업마다 <directory>/<job id>/ 아래에 놓입니다" }),
  hostKeySha256: z.string().max(44).regex(/^[A-Za-z0-9+/]{43}=?$/).meta({ description: "서버 호스트 키의 SHA-256 지문 (base64, ssh-keygen -l -E sha256의 SHA256: 뒤). 다르면 올리지 않습니다" }),
});

export type S3Config = z.infer<typeof S3ConfigSchema>;
export type SftpConfig = z.infer<typeof SftpConfigSchema>;

export const ROUTE_SECRET_MAX = 16 * 1024;
