import { callJson } from "./helpers";

/** The part of an OpenAPI 3.1 schema object the shape tests read. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  example?: unknown;
  examples?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

interface MediaTypes {
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OperationObject {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: MediaTypes & { required?: boolean };
  responses: Record<string, MediaTypes & { description: string; "x-error-codes"?: string[] }>;
  security?: unknown[];
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, unknown>> };
}

export interface Operation {
  method: string;
  path: string;
  operation: OperationObject;
}

export interface DocumentedError {
  status: number;
  /** The codes the response lists in `x-error-codes` (its description `오류: A, B` lists them for people). */
  codes: string[];
  description: string;
  schema: JsonSchema | undefined;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** The document the worker serves to clients, so the tests see exactly what a client generator sees. */
export async function servedDocument(): Promise<OpenApiDocument> {
  const { status, body } = await callJson<OpenApiDocument>("/api/v1/openapi.json");
  if (status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${status}`);
  return body;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

export const operationName = (op: Pick<Operation, "method" | "path">) => `${op.method} ${op.path}`;

export function documentedErrors(operation: OperationObject): DocumentedError[] {
  return Object.entries(operation.responses)
    .filter(([status]) => Number(status) >= 400)
    .map(([status, response]) => ({
      status: Number(status),
      codes: response["x-error-codes"] ?? [],
      description: response.description,
      schema: response.content?.["application/json"]?.schema,
    }));
}

/** Follows a `#/components/schemas/...` reference; any other schema is returned as it is. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = schema.$ref?.replace("#/components/schemas/", "");
  return name === undefined ? schema : resolve(doc, doc.components.schemas[name] ?? {});
}
