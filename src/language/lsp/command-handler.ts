/**
 * The server's `workspace/executeCommand` handler: thin by design. Each command id of the protocol
 * (src/protocol.ts) is handed to the service that does the work (outcome-requests.ts,
 * status-request.ts, editor-requests.ts); nothing is decided here.
 */
import { AbstractExecuteCommandHandler, type ExecuteCommandAcceptor, type LangiumSharedServices } from 'langium/lsp';
import { UmpireCommands } from '../../protocol.js';
import { connectionEditor, OutcomeCommands } from './outcome-requests.js';
import { campaignStatus } from './status-request.js';
import { battleReportCommand } from './report-request.js';
import { actionAtPosition, fileSummary, scenarioTemplates } from './editor-requests.js';
import type { TextChecker } from '../text-checker.js';
import { showOddsText, type ScratchWriter } from './odds-text-request.js';
import { campaignOddsCommand } from './campaign-odds-request.js';

export class BattleCommandHandler extends AbstractExecuteCommandHandler {
    private outcomes?: OutcomeCommands;

    constructor(private readonly shared: LangiumSharedServices, private readonly checker: TextChecker, private readonly scratch?: ScratchWriter) {
        super();
    }

    /** Called by the base constructor, before this one's fields exist: everything is looked up late. */
    registerCommands(accept: ExecuteCommandAcceptor): void {
        const commands = () => (this.outcomes ??= new OutcomeCommands(this.shared, connectionEditor(this.shared), this.checker));
        accept(UmpireCommands.resolve, (args, token) => commands().resolve(args[0], false, token));
        accept(UmpireCommands.reroll, (args, token) => commands().resolve(args[0], true, token));
        accept(UmpireCommands.resolveAll, (args, token) => commands().resolveAll(args[0], token));
        accept(UmpireCommands.odds, (args, token) => commands().odds(args[0], token));
        accept(UmpireCommands.oddsText, (args, token) => showOddsText(this.shared, connectionEditor(this.shared), (a, t) => commands().odds(a, t), args[0], token, this.scratch));
        accept(UmpireCommands.campaignOdds, (args, token) => campaignOddsCommand(this.shared, args[0], token, this.checker));
        accept(UmpireCommands.status, (args, token) => campaignStatus(this.shared, args[0], token));
        accept(UmpireCommands.report, (args, token) => battleReportCommand(this.shared, args[0], token));
        accept(UmpireCommands.verify, (args, token) => commands().verify(args[0], token));
        accept(UmpireCommands.actionAt, (args, token) => actionAtPosition(this.shared, args[0], token));
        accept(UmpireCommands.fileSummary, (args, token) => fileSummary(this.shared, args[0], token));
        accept(UmpireCommands.scenarioTemplates, () => scenarioTemplates(this.shared));
    }
}

