/**
 * The Java and Python clients' record and request types, generated from the OpenAPI document the app serves
 * (client/openapi.json), as the TypeScript client's api.d.ts is: `npx tsx scripts/generate-partner-clients.ts`
 * rewrites them, and test/node/client/partner-clients-generated.test.ts fails when the committed files are not what this
 * makes of the document (a field added, renamed or retyped there and not in a client).
 *
 * Money (`number`) becomes BigDecimal / Decimal, never a float; identifiers stay strings; enums stay strings, so a
 * value the service adds later does not break a partner's parsing. Unknown fields are ignored by both.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

type Schema = Record<string, any>;

const ROOT = path.resolve(import.meta.dirname, "..");
export const JAVA_OUT = "client-java/src/main/java/kr/co/collectedge/client/Schemas.java";
export const PYTHON_OUT = "client-python/collect_edge/models.py";

/** What each generated type is made from: a component, or a request or answer the document writes inline. */
function sources(doc: Schema): [string, Schema][] {
  const c = doc.components.schemas;
  const json = (op: Schema) => op.content["application/json"].schema;
  const components = [
    "HolderApproval", "InProgressDataJob", "SucceededDataJob", "FailedDataJob", "JobError", "FieldError", "CreateDataJobRequest",
    "DataJobListItem", "DataJobPage", "DataJobResultsDeletion", "DownloadLink", "CreateDownloadLinkRequest", "RegistrationOption",
    "RegistrationSession", "CredentialCheck", "Provider", "SchemaDetail", "WebhookEndpointWithSecret",
  ];
  return [
    ["ApiError", c.Error],
    ...components.map((name): [string, Schema] => [name, c[name]]),
    ...recordNames(doc).map((name): [string, Schema] => [name, c[name]]),
    ["CreateRegistrationSessionRequest", json(doc.paths["/api/v1/registration-sessions"].post.requestBody)],
    ["RegistrationSessionCreated", json(doc.paths["/api/v1/registration-sessions"].post.responses["201"])],
    ["CreateWebhookEndpointRequest", json(doc.paths["/api/v1/webhook-endpoints"].post.requestBody)],
  ];
}

/** The record schemas a job's results may hold (DataJobResults.data). */
function recordNames(doc: Schema): string[] {
  return doc.components.schemas.DataJobResults.properties.data.items.anyOf.map((r: Schema) => refName(r.$ref));
}

const refName = (ref: string) => ref.split("/").pop()!;

interface Field {
  name: string;
  schema: Schema;
  /** Required and not null: always present with a value. */
  present: boolean;
}

/** A type's fields: allOf parts merged, oneOf variants merged (a field is present only when every variant has it). */
function fieldsOf(doc: Schema, schema: Schema): Field[] {
  if (schema.$ref) return fieldsOf(doc, doc.components.schemas[refName(schema.$ref)]);
  if (schema.allOf) return schema.allOf.flatMap((part: Schema) => fieldsOf(doc, part));
  if (schema.oneOf) {
    const variants = schema.oneOf.map((v: Schema) => fieldsOf(doc, v));
    const merged = new Map<string, Field>();
    for (const variant of variants) for (const f of variant) if (!merged.has(f.name)) merged.set(f.name, f);
    return [...merged.values()].map((f) => ({ ...f, present: variants.every((v: Field[]) => v.some((g) => g.name === f.name && g.present)) }));
  }
  const required = new Set<string>(schema.required ?? []);
  return Object.entries<Schema>(schema.properties ?? {}).map(([name, s]) => ({ name, schema: s, present: required.has(name) && !nullable(s) }));
}

function nullable(s: Schema): boolean {
  if (Array.isArray(s.type)) return s.type.includes("null");
  if (s.allOf) return s.allOf.some(nullable);
  return false;
}

const kindOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type);

/** One field's type in the neutral terms both languages map. */
type Shape = { t: "string" | "integer" | "long" | "decimal" | "boolean" | "any" | "map" } | { t: "ref"; name: string } | { t: "list"; of: Shape };

function shapeOf(s: Schema, generated: Set<string>): Shape {
  if (s.$ref) return generated.has(refName(s.$ref)) ? { t: "ref", name: refName(s.$ref) } : { t: "map" };
  if (s.allOf) return shapeOf(s.allOf[0], generated);
  switch (kindOf(s)) {
    case "string":
      return { t: "string" };
    case "integer":
      return { t: s.format === "int32" ? "integer" : "long" };
    case "number":
      return { t: "decimal" };
    case "boolean":
      return { t: "boolean" };
    case "array":
      return { t: "list", of: shapeOf(s.items ?? {}, generated) };
    case "object":
      return { t: "map" };
    default:
      return { t: "any" };
  }
}

interface TypeDef {
  name: string;
  fields: (Field & { shape: Shape })[];
  /** A record type's schema identifier. */
  recordSchema?: string;
}

export function typeDefs(doc: Schema): TypeDef[] {
  const list = sources(doc);
  const generated = new Set(list.map(([name]) => name));
  const records = new Set(recordNames(doc));
  return list.map(([name, schema]) => {
    const fields = fieldsOf(doc, schema).map((f) => ({ ...f, shape: shapeOf(f.schema, generated) }));
    if (!records.has(name)) return { name, fields };
    // DataJobResults.data says an incremental job's records carry `change` as their last field; no record schema lists it.
    if (!fields.some((f) => f.name === "change")) fields.push({ name: "change", schema: {}, present: false, shape: { t: "string" } });
    return { name, fields, recordSchema: schema.properties.schema.enum[0] };
  });
}

const header = "Generated from client/openapi.json by scripts/generate-partner-clients.ts; do not edit.";

function javaType(shape: Shape, present: boolean): string {
  switch (shape.t) {
    case "string":
      return "String";
    case "integer":
      return present ? "int" : "Integer";
    case "long":
      return present ? "long" : "Long";
    case "boolean":
      return present ? "boolean" : "Boolean";
    case "decimal":
      return "BigDecimal";
    case "any":
    case "map":
      return "JsonNode";
    case "ref":
      return shape.name;
    case "list":
      return `List<${javaType(shape.of, false)}>`;
  }
}

const JAVA_RESERVED = new Set(["default", "public", "class", "interface", "package", "import", "new", "static", "final", "switch", "case"]);

export function java(doc: Schema): string {
  const defs = typeDefs(doc);
  const jobs = ["InProgressDataJob", "SucceededDataJob", "FailedDataJob"];
  const lines = [
    `// ${header}`,
    "package kr.co.collectedge.client;",
    "",
    "import com.fasterxml.jackson.annotation.JsonSubTypes;",
    "import com.fasterxml.jackson.annotation.JsonTypeInfo;",
    "import com.fasterxml.jackson.databind.JsonNode;",
    "import java.math.BigDecimal;",
    "import java.util.List;",
    "import java.util.Map;",
    "",
    "/** The service's records, requests and answers; nullable fields are the document's optional or null ones. */",
    "public final class Schemas {",
    "  private Schemas() {}",
    "",
    "  /** A job as GET /data-jobs/{id} answers it: InProgress, Succeeded or Failed (its `kind`). */",
    '  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "kind", visible = true)',
    "  @JsonSubTypes({",
    ...jobs.map((j, i) => `    @JsonSubTypes.Type(value = ${j}.class, name = "${j.replace("DataJob", "")}")${i < jobs.length - 1 ? "," : ""}`),
    "  })",
    `  public sealed interface DataJob permits ${jobs.join(", ")} {`,
    "    String kind();",
    "    String id();",
    "    String providerCode();",
    "    String schema();",
    "    String credentialId();",
    "    long suggestedPollIntervalMs();",
    "    long maxWaitSeconds();",
    "  }",
    "",
    "  /** A job's records of one schema, each a record type below. */",
    "  public sealed interface JobRecord permits " + defs.filter((d) => d.recordSchema).map((d) => d.name).join(", ") + " {",
    "    String schema();",
    "    String change();",
    "  }",
    "",
    "  /** Each record type by its schema identifier. */",
    "  public static final Map<String, Class<? extends JobRecord>> RECORD_TYPES = Map.ofEntries(",
    ...defs.filter((d) => d.recordSchema).map((d, i, all) => `    Map.entry("${d.recordSchema}", ${d.name}.class)${i < all.length - 1 ? "," : ""}`),
    "  );",
  ];
  for (const def of defs) {
    for (const f of def.fields) if (JAVA_RESERVED.has(f.name)) throw new Error(`${def.name}.${f.name} is a Java keyword`);
    const implemented = jobs.includes(def.name) ? " implements DataJob" : def.recordSchema ? " implements JobRecord" : "";
    lines.push("");
    lines.push(`  public record ${def.name}(`);
    def.fields.forEach((f, i) => lines.push(`      ${javaType(f.shape, f.present)} ${f.name}${i < def.fields.length - 1 ? "," : ""}`));
    lines.push(`  )${implemented} {`);
    if (def.recordSchema) lines.push(`    public static final String SCHEMA = "${def.recordSchema}";`);
    lines.push("  }");
  }
  lines.push("}", "");
  return lines.join("\n");
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function pyType(shape: Shape): string {
  switch (shape.t) {
    case "string":
      return "str";
    case "integer":
    case "long":
      return "int";
    case "boolean":
      return "bool";
    case "decimal":
      return "Decimal";
    case "any":
      return "Any";
    case "map":
      return "dict[str, Any]";
    case "ref":
      return shape.name;
    case "list":
      return `list[${pyType(shape.of)}]`;
  }
}

function pyRead(shape: Shape, value: string): string {
  switch (shape.t) {
    case "decimal":
      return `_decimal(${value})`;
    case "ref":
      return `${shape.name}.from_json(${value})`;
    case "list":
      return shape.of.t === "ref" || shape.of.t === "decimal" ? `[${pyRead(shape.of, "x")} for x in ${value}]` : `list(${value})`;
    default:
      return value;
  }
}

export function python(doc: Schema): string {
  const defs = typeDefs(doc);
  const lines = [
    `# ${header}`,
    '"""The service\'s records, requests and answers as dataclasses; attributes are the JSON fields in snake_case."""',
    "",
    "from __future__ import annotations",
    "",
    "from dataclasses import dataclass",
    "from decimal import Decimal",
    "from typing import Any, ClassVar, Union",
    "",
    "",
    "def _decimal(value: Any) -> Decimal:",
    '    """Amounts arrive as Decimal (the client parses JSON floats so) or int: both are exact."""',
    "    return value if isinstance(value, Decimal) else Decimal(str(value))",
  ];
  for (const def of defs) {
    const ordered = [...def.fields.filter((f) => f.present), ...def.fields.filter((f) => !f.present)];
    lines.push("", "", "@dataclass(frozen=True)", `class ${def.name}:`);
    lines.push(`    JSON_FIELDS: ClassVar[dict[str, str]] = {${def.fields.map((f) => `"${snake(f.name)}": "${f.name}"`).join(", ")}}`);
    if (def.recordSchema) lines.push(`    SCHEMA: ClassVar[str] = "${def.recordSchema}"`);
    for (const f of ordered) lines.push(`    ${snake(f.name)}: ${pyType(f.shape)}${f.present ? "" : " | None = None"}`);
    lines.push("", "    @classmethod", `    def from_json(cls, d: dict[str, Any]) -> ${def.name}:`, "        return cls(");
    for (const f of ordered) {
      const read = f.present ? pyRead(f.shape, `d["${f.name}"]`) : `None if d.get("${f.name}") is None else ${pyRead(f.shape, `d["${f.name}"]`)}`;
      lines.push(`            ${snake(f.name)}=${read},`);
    }
    lines.push("        )");
  }
  const records = defs.filter((d) => d.recordSchema);
  lines.push(
    "",
    "",
    "DataJob = Union[InProgressDataJob, SucceededDataJob, FailedDataJob]",
    `JobRecord = Union[${records.map((d) => d.name).join(", ")}]`,
    "",
    "# Each record type by its schema identifier.",
    "RECORD_TYPES: dict[str, type[JobRecord]] = {",
    ...records.map((d) => `    "${d.recordSchema}": ${d.name},`),
    "}",
    "",
    "",
    "def data_job_from_json(d: dict[str, Any]) -> DataJob:",
    '    kind = d["kind"]',
    '    if kind == "InProgress":',
    "        return InProgressDataJob.from_json(d)",
    '    if kind == "Succeeded":',
    "        return SucceededDataJob.from_json(d)",
    "    return FailedDataJob.from_json(d)",
    "",
  );
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const doc = JSON.parse(readFileSync(path.join(ROOT, "client/openapi.json"), "utf8"));
  writeFileSync(path.join(ROOT, JAVA_OUT), java(doc));
  writeFileSync(path.join(ROOT, PYTHON_OUT), python(doc));
}
