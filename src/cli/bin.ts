#!/usr/bin/env node
import { main } from './main';

void main(process.argv.slice(2));
