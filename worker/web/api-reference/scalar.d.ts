// A Text module (wrangler.toml [[rules]]): the vendored bundle's source as a string.
declare module "*/scalar-api-reference.standalone.js" {
  const source: string;
  export default source;
}
