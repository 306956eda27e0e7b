import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/platform/database/tables.ts",
  out: "./drizzle",
});
