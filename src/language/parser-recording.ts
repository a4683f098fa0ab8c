/**
 * The end of Chevrotain's recording of the grammar, made cheaper. Chevrotain 13.2.0's `performSelfAnalysis`
 * (parse/parser/parser.js) first has V8 keep the parser as a prototype (`toFastProperties`), then records the
 * grammar with recording versions of `CONSUME`, `SUBRULE`, `OR` and the rest set on the parser itself
 * (`enableRecording`, parse/parser/traits/gast_recorder.js), and at the end deletes them (`disableRecording`),
 * so that the parser's own methods are found again. A property deleted from an object V8 keeps as a prototype
 * makes V8 lay out all the object's properties again: 88 deletes from a parser of 175 properties cost 2–3 ms of
 * every start (docs/performance.md, "Start-up"). Here each property the recording set is pointed at the method
 * it hid instead (or deleted, where none was hidden): the same methods are found as after a delete.
 *
 * A subclass of the recogniser Langium 4.4.0 wraps Chevrotain in (`ChevrotainWrapper`, read from the parser's own,
 * as parse-recovery-costs.ts does), overriding Chevrotain's `enableRecording` (to note what it set) and
 * `disableRecording` (which otherwise only clears `RECORDING_PHASE`).
 */
import type { RecognizerClass } from './parse-recovery-costs.js';

/** The members of Chevrotain's recogniser these methods read (internal in its typings). */
interface Recording {
    RECORDING_PHASE: boolean;
    enableRecording(): void;
    disableRecording(): void;
}

const made = new WeakMap<RecognizerClass, RecognizerClass>();

/** `Base` with the recording's methods taken back without a delete each (one class per base). */
export function withRecordingUndoneInPlace(Base: RecognizerClass): RecognizerClass {
    let Undone = made.get(Base);
    if (Undone === undefined) {
        Undone = recordingUndoneInPlace(Base as unknown as new (...args: ConstructorParameters<RecognizerClass>) => Recording) as unknown as RecognizerClass;
        made.set(Base, Undone);
    }
    return Undone;
}

function recordingUndoneInPlace(Base: new (...args: ConstructorParameters<RecognizerClass>) => Recording) {
    return class RecordingUndoneInPlace extends Base {
        /** The methods the recording set on the parser. */
        private recordingSet: string[] = [];

        override enableRecording(): void {
            const self = this as unknown as Record<string, unknown>;
            const before = new Map(Object.keys(self).map(key => [key, self[key]]));
            super.enableRecording();
            // The methods it set: its other fields (`RECORDING_PHASE`) are the recogniser's own.
            this.recordingSet = Object.keys(self).filter(key => typeof self[key] === 'function' && !(before.has(key) && before.get(key) === self[key]));
        }

        override disableRecording(): void {
            this.RECORDING_PHASE = false;
            const self = this as unknown as Record<string, unknown>;
            const prototype = Object.getPrototypeOf(this) as Record<string, unknown>;
            for (const key of this.recordingSet) {
                // What a delete leaves in view: the prototype's method, or nothing.
                const hidden = prototype[key];
                if (hidden === undefined) delete self[key];
                else self[key] = hidden;
            }
            this.recordingSet = [];
        }
    };
}
