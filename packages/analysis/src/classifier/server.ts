// What a server needs of recipes without loading the analysis engine (@lamella/analysis/classifier): the
// classifier worker (training and previews in a worker thread) and the rule of which model a recipe measures.
export * from './trainer.js';
export * from './measures.js';
