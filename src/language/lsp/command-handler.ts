/**
 * The server's `workspace/executeCommand` handler: thin by design. Each command id of the protocol
 * (src/protocol.ts) is handed to the service that does the work (outcome-commands.ts,
 * status-command.ts); nothing is decided here.
 */
import { AbstractExecuteCommandHandler, type ExecuteCommandAcceptor, type LangiumSharedServices } from 'langium/lsp';
import type { Action, Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { UmpireCommands } from '../../protocol.js';
import { connectionEditor, OutcomeCommands } from './outcome-commands.js';
import { campaignStatus } from './status-request.js';
import { battleReportCommand } from './report-command.js';
import type { TextChecker } from '../text-checker.js';

export class BattleCommandHandler extends AbstractExecuteCommandHandler {
    private outcomes?: OutcomeCommands;

    constructor(private readonly shared: LangiumSharedServices, private readonly checker: TextChecker) {
        super();
    }

    /** Called by the base constructor, before this one's fields exist: everything is looked up late. */
    registerCommands(accept: ExecuteCommandAcceptor): void {
        const commands = () => (this.outcomes ??= new OutcomeCommands(this.shared, connectionEditor(this.shared), this.checker));
        accept(UmpireCommands.resolve, (args, token) => commands().resolve(args[0], false, token));
        accept(UmpireCommands.reroll, (args, token) => commands().resolve(args[0], true, token));
        accept(UmpireCommands.resolveAll, (args, token) => commands().resolveAll(args[0], token));
        accept(UmpireCommands.odds, (args, token) => commands().odds(args[0], token));
        accept(UmpireCommands.status, (args, token) => campaignStatus(this.shared, args[0], token));
        accept(UmpireCommands.report, (args, token) => battleReportCommand(this.shared, args[0], token));
    }
}

/** The action a position sits in, if any. */
export function actionAt(root: Scenario, offset: number): Action | undefined {
    const model = modelOf(root);
    return model.actions.find(a => a.node.$cstNode && a.node.$cstNode.offset <= offset && offset <= a.node.$cstNode.end)?.node;
}
