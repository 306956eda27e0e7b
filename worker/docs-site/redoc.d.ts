// wrangler.toml's Text rule imports Redoc's standalone bundle as its source text.
declare module "redoc/bundles/redoc.standalone.js" {
  const source: string;
  export default source;
}
