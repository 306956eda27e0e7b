// Text modules (wrangler.toml [[rules]]): the files' contents as strings.
declare module "uplot/dist/uPlot.iife.min.js" {
  const source: string;
  export default source;
}
declare module "uplot/dist/uPlot.min.css" {
  const source: string;
  export default source;
}
