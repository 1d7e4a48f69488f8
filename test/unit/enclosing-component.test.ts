// An error in a component's own method names that component: the class or options object around the frame
// (src/stack/enclosing-component.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enclosingComponent } from '../../src/stack/enclosing-component';

const angular = [
  "import { Component, OnInit } from '@angular/core';", // 1
  '', // 2
  '@Component({', // 3
  "  selector: 'app-cart',", // 4
  '  template: `<p>{{ total }}</p>', // 5
  '    <span>{{ items.length }}</span>`,', // 6
  '})', // 7
  'export class CartComponent implements OnInit {', // 8
  '  total = 0;', // 9
  '  ngOnInit(): void {', // 10
  "    const s = '}'; // a brace in a string {", // 11
  '    this.total = this.items!.length;', // 12
  '  }', // 13
  '', // 14
  '  async restore() {', // 15
  '    if (this.total) {', // 16
  '      throw new Error(`no ${this.total}`);', // 17
  '    }', // 18
  '  }', // 19
  '}', // 20
  'export class Helper {', // 21
  '  run() {', // 22
  '    return 1;', // 23
  '  }', // 24
  '}', // 25
].join('\n');

describe('enclosingComponent', () => {
  it("names an Angular @Component class from a line in its method, nested blocks and strings with braces included", () => {
    assert.deepEqual(enclosingComponent(angular, 12), { name: 'CartComponent', framework: 'Angular', line: 8 });
    assert.deepEqual(enclosingComponent(angular, 17), { name: 'CartComponent', framework: 'Angular', line: 8 });
    // A class without the decorator, and a line outside any class, are no component.
    assert.equal(enclosingComponent(angular, 23), undefined);
    assert.equal(enclosingComponent(angular, 1), undefined);
  });

  it('names a React class component, and not a plain class', () => {
    const react = ['import React from "react";', 'export class Cart extends React.Component<Props> {', '  componentDidMount() {', '    this.props.items!.map(String);', '  }', '}', 'class Store {', '  load() {', '    return null;', '  }', '}'].join('\n');
    assert.deepEqual(enclosingComponent(react, 4), { name: 'Cart', framework: 'React', line: 2 });
    assert.equal(enclosingComponent(react, 9), undefined);
    const pure = 'class Row extends PureComponent {\n  render() {\n    return x.y;\n  }\n}';
    assert.deepEqual(enclosingComponent(pure, 3), { name: 'Row', framework: 'React', line: 1 });
  });

  it('names a Vue defineComponent object by its variable, its name, or its file', () => {
    const vue = ["import { defineComponent } from 'vue';", 'export const BrokenList = defineComponent({', "  name: 'BrokenList',", '  mounted() {', '    document.title = latest!.label;', '  },', '});'].join('\n');
    assert.deepEqual(enclosingComponent(vue, 5), { name: 'BrokenList', framework: 'Vue', line: 2 });
    const named = "export default defineComponent({\n  name: 'OrderTotal',\n  mounted() {\n    x.y();\n  },\n});";
    assert.deepEqual(enclosingComponent(named, 4), { name: 'OrderTotal', framework: 'Vue', line: 1 });
    const anonymous = 'export default defineComponent({\n  setup() {\n    x.y();\n  },\n});';
    assert.deepEqual(enclosingComponent(anonymous, 3, 'src/UserCard.ts'), { name: 'UserCard', framework: 'Vue', line: 1 });
  });
});
