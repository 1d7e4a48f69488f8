export { errorsOutputSchema, summaryOutputSchema, summaryTestSchema, showMatchesOutputSchema, cliErrorSchema, cliTestSchema, cliLocationSchema } from './schema';
export type { ErrorsOutput, SummaryOutput, SummaryTest, ShowMatchesOutput, CliError, CliTest, CliLocation } from './schema';
export { runIndexSchema, indexEntrySchema } from '../model/run-index';
export type { RunIndexData, IndexEntryData } from '../model/run-index';
export { runCli } from './main';
export type { CommandOutput } from './output';
