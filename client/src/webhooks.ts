// The typed client's webhook half is the shared contract (contracts/webhooks.ts), re-exported for receivers.
export * from "../../contracts/webhooks";
