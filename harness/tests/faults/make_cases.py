#!/usr/bin/env python3
"""Writes every known-wrong case, harness/labs/NN_<lab>/wrong/<case>/, from the committed
solutions (or skeletons) and the textual edits of each, plus its expect.txt. Each lab
defines its own cases in harness/labs/NN_<lab>/wrong/cases.toml, beside the case folders
(what each field means: README.md, beside this script); this script reads every lab's
and applies them. A case is folder <case> in its lab's file and NN_<case> in its test
("faults: 02_off_by_one"). Run it after a solution changes; every edit that no longer
applies is named, and nothing is written then.

  make_cases.py           write the case folders
  make_cases.py --check   write nothing; exit 1 naming each committed file that differs
                          from what would be written (CI runs this, label `faults`)"""
import glob, os, subprocess, sys, tomllib
W=os.path.dirname(os.path.abspath(__file__))
ROOT=os.path.dirname(os.path.dirname(os.path.dirname(W)))
def case_dir(folder):
    # 02_off_by_one -> <ROOT>/harness/labs/02_dot_product/wrong/off_by_one
    lab=folder[:2]
    return os.path.join(ROOT,'harness','labs',LABS[lab].split('/')[0],'wrong',folder[3:])
# Each lab's file, from the workbook itself: 02 -> 02_dot_product/dot_product (the one .cu
# of solutions/02_dot_product/).
LABS={os.path.basename(os.path.dirname(path))[:2]:
      os.path.relpath(path, os.path.join(ROOT,'solutions'))[:-len('.cu')]
      for path in glob.glob(os.path.join(ROOT,'solutions','[0-9][0-9]_*','*.cu'))}
CHECK='--check' in sys.argv[1:]
files={}      # path -> text, written at the end when every edit applied
problems=[]
def src(lab, tree='solutions'):
    # the committed file, not another engineer's work in progress
    return subprocess.run(['git','-C',ROOT,'show',f'HEAD:{tree}/{LABS[lab]}.cu'],check=True,capture_output=True,text=True).stdout
def with_includes(after, *headers):
    # the edit that adds #include <h> for each of headers below the file's #include <after>
    return (f'#include <{after}>\n', f'#include <{after}>\n'+''.join(f'#include <{h}>\n' for h in headers))
def case(folder, text, expect, subs=(), note=None):
    lab=folder[:2]; name=LABS[lab].split('/')[1]
    for old,new in subs:
        if text.count(old)!=1:
            problems.append(f'{folder}: the edit {old[:70]!r} matches {text.count(old)} times in the solution (needs 1)')
            return
        text=text.replace(old,new)
    lines=[f'# {note}'] if note else []
    for k,v in expect:
        lines.append(f'{k}: {v}')
    files[f'{case_dir(folder)}/{name}.cu']=text
    files[f'{case_dir(folder)}/expect.txt']='\n'.join(lines)+'\n'
def finish():
    if problems:
        sys.exit('make_cases.py: stale edits, nothing written:\n  '+'\n  '.join(problems))
    stale=[p for p,t in files.items() if not os.path.exists(p) or open(p).read()!=t]
    # A committed case folder, or a file in one, that this script does not write: a case
    # edited by hand or one whose edit was removed here.
    made={os.path.dirname(p) for p in files}
    unknown=[]
    for d in glob.glob(os.path.join(ROOT,'harness','labs','[0-9][0-9]_*','wrong','*')):
        if not os.path.isdir(d):
            continue   # the lab's cases.toml
        if d not in made:
            unknown.append(d)
        else:
            unknown+=[f for f in (os.path.join(d,n) for n in os.listdir(d)) if f not in files]
    if CHECK:
        rel=lambda paths: '\n  '.join(os.path.relpath(p,ROOT) for p in sorted(paths))
        report=[]
        if stale:
            report.append('these case files differ from what make_cases.py writes (run it and commit the result):\n  '+rel(stale))
        if unknown:
            report.append('these committed case files are not written by make_cases.py (add the case here, or remove it):\n  '+rel(unknown))
        if report:
            sys.exit('make_cases.py --check: '+'\nmake_cases.py --check: '.join(report))
        print(f'make_cases.py --check: all {len(files)} case files are up to date')
        return
    for p in stale:
        os.makedirs(os.path.dirname(p),exist_ok=True)
        open(p,'w').write(files[p])
    print(f'make_cases.py: {len(stale)} of {len(files)} case files written')

def lab_cases(path):
    # Each [[case]] of one lab's wrong/cases.toml as the arguments of case(): its folder
    # NN_<case>, the lab's number taken from the lab folder the file is in.
    lab=os.path.basename(os.path.dirname(os.path.dirname(path)))[:2]
    with open(path,'rb') as f:
        table=tomllib.load(f)
    tests=table.get('tests',{})
    shared=table.get('shared_edits',{})
    for c in table.get('case',[]):
        expect=[('verdict',c['verdict'])]
        expect+=[('message',m) for m in c.get('messages',[])]
        expect+=[('case',tests.get(t,t)) for t in c.get('tests',[])]
        expect+=[(k,str(c[k])) for k in ('limit','batch') if k in c]
        expect+=[('passes under',order) for order in c.get('passes_under',[])]
        expect+=[('fails under',order) for order in c.get('fails_under',[])]
        subs=[]
        if 'includes' in c:
            subs.append(with_includes(c['includes']['after'],*c['includes']['add']))
        subs+=[(shared[name]['old'],shared[name]['new']) for name in c.get('shared_edits',[])]
        subs+=[(e['old'],e['new']) for e in c.get('edit',[])]
        yield f"{lab}_{c['folder']}", src(lab, c.get('tree','solutions')), expect, subs, c.get('note')

def cases():
    # Every lab's cases, lab by lab. A lab keeps them in one file beside their folders (not
    # one per case: its cases share shorthand test names and edits; not one for the course:
    # a case belongs to its lab's room).
    for path in sorted(glob.glob(os.path.join(ROOT,'harness','labs','[0-9][0-9]_*','wrong','cases.toml'))):
        yield from lab_cases(path)

if __name__=='__main__':
    for folder, text, expect, subs, note in cases():
        case(folder, text, expect, subs, note=note)
    finish()
