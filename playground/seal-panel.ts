/**
 * The playground's sealed-dice panel (docs/campaigns.md#sealed-dice): a player pastes the secret the
 * umpire published (or leaves it blank when the file carries its `reveal`) and the language server in
 * the page's worker recomputes every seed and replays every outcome (`umpire.verify`), as
 * `umpire verify` does. The secret stays in the page.
 */
import { escapeHtml } from '../src/extension/odds-html.js';
import { UmpireCommands, type VerifyAnswer } from '../src/protocol.js';

interface Verifier {
    executeCommand<T = unknown>(command: string, args: unknown[]): Promise<T>;
}

/** The verdicts as the page shows them: one line an action, then the count. */
function verdictsHtml(answer: VerifyAnswer): string {
    if ('problem' in answer) return `<p class="seal-problem">${escapeHtml(answer.problem)}</p>`;
    const rows = answer.verdicts.map(v => `<li class="seal-${v.verdict.replace(' ', '-')}"><b>${escapeHtml(v.action)}</b>: ${v.verdict}${v.detail ? ` — ${escapeHtml(v.detail)}` : ''}</li>`);
    const altered = answer.verdicts.filter(v => v.verdict === 'altered').length;
    return `<ul>${rows.join('')}</ul><p>${altered === 0 ? 'No altered outcome.' : `${altered} altered: the record was changed after its dice were sealed.`}</p>`;
}

/** Wires the panel's field and button to the server, for the file `currentUri` names. */
export function attachSealPanel(server: Verifier, currentUri: () => string | undefined): void {
    const secret = document.getElementById('seal-secret') as HTMLInputElement | null;
    const button = document.getElementById('seal-verify');
    const out = document.getElementById('seal-verdicts');
    if (!secret || !button || !out) return;
    button.addEventListener('click', () => {
        const uri = currentUri();
        if (!uri) return;
        out.textContent = 'Verifying…';
        server.executeCommand<VerifyAnswer>(UmpireCommands.verify, [{ uri, secret: secret.value === '' ? undefined : secret.value }])
            .then(answer => { out.innerHTML = verdictsHtml(answer); })
            .catch(err => { out.textContent = `Could not verify: ${String(err)}`; });
    });
}
