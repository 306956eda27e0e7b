import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/domain/*/tables.ts",
  out: "./drizzle",
});
