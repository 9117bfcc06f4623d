/** What storable-json.ts uses of lossless-json: deployed, a file of its own, lossless-json.cjs. */
export { isLosslessNumber, isSafeNumber, LosslessNumber, parse, stringify } from 'lossless-json';
