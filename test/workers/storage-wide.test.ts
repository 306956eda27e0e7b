/**
 * The tests whose code under test acts on every row in storage: the sweep, the webhook dispatcher, the retention
 * cron (rows, and expired results) and the vault rotation; and the provider status, which counts every file's sandbox jobs in one pulse. They run here, one file after another in one runtime of their own (the
 * `workers-own-storage` project), away from the rows the other files make side by side; each copes with the rows
 * the others leave. One file, not four: every runtime costs about ten seconds to start.
 */
import "./pipeline-sweep.test";
import "./webhooks.test";
import "./retention.test";
import "./vault-rotation.test";
import "./provider-status.test";
import "./results-purge.test";
// Last: it warns of every credential's end, and leaves a consent that has ended for the warnings of any file after it.
import "./credential-consent.test";
