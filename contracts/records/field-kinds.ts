import type { z } from "zod";

export type FieldKind = "string" | "number" | "boolean" | "date" | "datetime";

export interface FieldInfo {
  name: string;
  title: string;
  kind: FieldKind;
  nullable: boolean;
}

interface Def {
  type: string;
  innerType?: { _zod: { def: Def } };
  format?: string;
}

/** What each record field holds, read from its zod definition: how a site shows it and how an adapter reads it back. */
export function fieldInfos(record: z.ZodObject): FieldInfo[] {
  return Object.entries(record.shape).map(([name, field]) => {
    let def = (field as unknown as { _zod: { def: Def } })._zod.def;
    const nullable = def.type === "nullable";
    if (nullable) def = def.innerType!._zod.def;
    const kind: FieldKind =
      def.type === "number" ? "number" : def.type === "boolean" ? "boolean" : def.format === "datetime" ? "datetime" : def.format === "date" ? "date" : "string";
    return { name, title: ((field as z.ZodType).meta()?.title as string | undefined) ?? name, kind, nullable };
  });
}
