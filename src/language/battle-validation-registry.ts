/** The validation registry: each check called straight (one of the build's whole-file costs made cheaper, docs/performance.md). */
import { isOperationCancelled, ValidationRegistry, type AstNode, type MaybePromise, type ValidationAcceptor, type ValidationCheck } from 'langium';

/**
 * Langium wraps every check in two async functions (`wrapValidationException`, `handleException`): two
 * promises and their turns of the microtask queue for each check of each node, which a cold check of
 * 50,000 lines paid about 200,000 times (docs/performance.md, "A one-shot check keeps nothing"). The checks
 * of this language are synchronous, so each is called straight; one that throws is reported as Langium
 * reports it (the message, the node), at once rather than a turn later; a check that returns a promise
 * is awaited by the caller as Langium's wrapper would be.
 */
export class BattleValidationRegistry extends ValidationRegistry {
    protected override wrapValidationException(check: ValidationCheck, thisObj: unknown): ValidationCheck {
        const failed = (error: unknown, accept: ValidationAcceptor, node: AstNode): void => {
            if (isOperationCancelled(error)) throw error;
            console.error('An error occurred during validation:', error);
            if (error instanceof Error && error.stack) console.error(error.stack);
            accept('error', `An error occurred during validation: ${error instanceof Error ? error.message : String(error)}`, { node });
        };
        return (node, accept, cancelToken) => {
            let result: MaybePromise<void>;
            try {
                result = check.call(thisObj, node, accept, cancelToken);
            } catch (error) {
                failed(error, accept, node);
                return;
            }
            return result instanceof Promise ? result.catch(error => failed(error, accept, node)) : undefined;
        };
    }
}
