#!/usr/bin/env python3
"""Writes every known-wrong case, harness/labs/NN_<lab>/wrong/<case>/, from the committed
solutions (or skeletons) and one textual edit each, plus its expect.txt. A case is named
NN_<case> here and in its test ("faults: 02_off_by_one"). Run it after a solution
changes; every edit that no longer applies is named, and nothing is written then.

  make_cases.py           write the case folders
  make_cases.py --check   write nothing; exit 1 naming each committed file that differs
                          from what would be written (CI runs this, label `faults`)"""
import glob, os, subprocess, sys
W=os.path.dirname(os.path.abspath(__file__))
ROOT=os.path.dirname(os.path.dirname(os.path.dirname(W)))
def case_dir(folder):
    # 02_off_by_one -> <ROOT>/harness/labs/02_dot_product/wrong/off_by_one
    lab=folder[:2]
    return os.path.join(ROOT,'harness','labs',LABS[lab].split('/')[0],'wrong',folder[3:])
LABS={'01':'01_saxpy/saxpy','02':'02_dot_product/dot_product','03':'03_reduce/reduce','05':'05_naive_scan/naive_scan','06':'06_work_efficient_scan/work_efficient_scan',
      '09':'09_odd_even_sort/odd_even_sort','10':'10_merge_sort/merge_sort','11':'11_radix_sort/radix_sort',
      '12':'12_warp_radix_sort/warp_radix_sort'}
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

E='saxpy matches the CPU reference at edge sizes'
W1='saxpy reproduces the lecture worked example'
A1='saxpy works on arrays that start at any element'
# ---- lab 01
case('01_skeleton', src('01','labs'), [('verdict','wrong answer'),('message','TODO.?01\\.1'),('case',W1),('limit','20')],
     note='the untouched skeleton')
case('01_missing_guard', src('01'), [('verdict','fault'),('message','out-of-bounds (read|write)'),('message','saxpy_vec4_kernel'),('message','saxpy\\.cu:44'),('case',E),('limit','30')],
     [('  if (tail < n) y[tail] = a * x[tail] + y[tail];','  y[tail] = a * x[tail] + y[tail];')],
     note='the tail of the vectorised kernel lost its if (tail < n) guard: writes past the end of y')
case('01_exit_zero', src('01'), [('verdict','exited early'),('message','exit'),('case',W1),('limit','20')],
     [with_includes('cstdint', 'cstdlib'),
      ('  saxpy_kernel<<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(a, d_x, d_y, n);\n',
       '  saxpy_kernel<<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(a, d_x, d_y, n);\n  std::exit(0);  // done\n'),
      ('  if (launch_vectorised(a, d_x, d_y, n, stream)) return;\n','  if (launch_vectorised(a, d_x, d_y, n, stream)) std::exit(0);\n')],
     note='calls exit(0) after its launch: the process ends before the harness reports')
case('01_fake_pass', src('01','labs'), [('verdict','exited early'),('message','printed a pass'),('case',W1),('limit','20')],
     [with_includes('cstdint', 'cstdio', 'cstdlib'),
      ('  if (n == 0) return;\n','  if (n == 0) return;\n  std::printf("[doctest] test cases: 6 | 6 passed | 0 failed | 0 skipped\\n[doctest] Status: SUCCESS!\\n");\n  std::fflush(stdout);\n  std::_Exit(0);\n')],
     note='the skeleton, but it prints doctest\'s success lines and exits with status 0')
case('01_abort', src('01'), [('verdict','crashed'),('message','abort'),('case',A1),('limit','30')],
     [with_includes('cstdint', 'cstdlib'),
      ('  if (!aligned) return false;\n','  if (!aligned) std::abort();  // "cannot happen": cudaMalloc aligns to 256 bytes\n')],
     note='aborts on arrays that are not 16-byte aligned instead of falling back to the scalar kernel')
case('01_throws', src('01'), [('verdict','threw'),('message','aligned'),('case',A1),('limit','30')],
     [with_includes('cstdint', 'stdexcept'),
      ('  if (!aligned) return false;\n','  if (!aligned) throw std::runtime_error("saxpy: x and y must be 16-byte aligned");\n')],
     note='throws on arrays that are not 16-byte aligned')
case('01_other_stream', src('01'), [('verdict','passed'),('case',W1),('case',E),('limit','60')],
     [('void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {\n',
       'void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t) {\n  // Returns at once: the work runs on a stream of its own that the caller never waits for.\n  static cudaStream_t stream = [] { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); return s; }();\n')],
     note='launches on a private non-blocking stream and returns before the work is done; the emulator runs launches synchronously, so it passes there (a GPU check catches it only by chance; timing counts it through the wall clock)')
case('01_too_much_memory', src('01'), [('verdict','threw'),('message','out of memory|memory allocation'),('case',W1),('limit','30')],
     [('#include <cstdint>\n','#include <cstdint>\n\n#include "pplab/cuda_check.h"\n'),
      ('  if (n == 0) return;\n','  if (n == 0) return;\n  // A scratch copy of x, sized in bytes twice over (n * n * 4 TiB).\n  float* scratch = nullptr;\n  PPLAB_CUDA_CHECK(cudaMalloc(&scratch, n * n * sizeof(float) << 40));\n  PPLAB_CUDA_CHECK(cudaFree(scratch));\n')],
     note='asks cudaMalloc for far more device memory than any GPU has, and checks the error')
case('01_cache', src('01'), [('verdict','ran on the host'),('message','the work ran on the host: saxpy copied'),('case','saxpy with a = 0 leaves y as it was and with a = 1 adds x'),('limit','30')],
     [with_includes('cstdint', 'vector'),
      ('void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {\n  if (n == 0) return;\n',
       'void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {\n  if (n == 0) return;\n'
       '  // "Memoised": the answer of the last call with this many elements is reused.\n'
       '  static std::vector<float> cached;\n'
       '  if (cached.size() == n) {\n    cudaMemcpy(d_y, cached.data(), n * sizeof(float), cudaMemcpyHostToDevice);\n    return;\n  }\n'
       '  struct Keep {\n    float* y; std::size_t n;\n    ~Keep() { cached.resize(n); cudaMemcpy(cached.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost); }\n  } keep{d_y, n};\n')],
     note='caches the answer between calls (keyed by the size): the second call with the same size returns the first call\'s answer')
# ---- lab 02
S='dot product reproduces the seed example (8 threads 8 elements give 52)'
E2='dot product matches the CPU reference at edge sizes'
B2='dot product works with every block size from 8 to 1024'
L2='dot product matches the CPU reference on a large random input'
case('02_skeleton', src('02','labs'), [('verdict','wrong answer'),('message','TODO.?02\\.1'),('case',S),('limit','20')], note='the untouched skeleton')
case('02_off_by_one', src('02'), [('verdict','wrong answer'),('message','result'),('case',E2),('limit','60')],
     [('  for (std::size_t i = scalar_from + global_i; i < n; i += grid_threads) sum += a[i] * b[i];','  for (std::size_t i = scalar_from + global_i; i < n - 1; i += grid_threads) sum += a[i] * b[i];')],
     note='off by one: the product loop stops at n - 1, so the last product is never added')
case('02_missing_syncthreads', src('02'), [('verdict','data race'),('message','data race on shared memory in kernel .dot_product_kernel'),('message','writes shared.1. at .*dot_product\\.cu:67'),('message','read it at .*dot_product\\.cu:67'),('case',S),('case',B2),('limit','60')],
     [('    if (local_i < stride) shared[local_i] += shared[local_i + stride];\n    __syncthreads();\n','    if (local_i < stride) shared[local_i] += shared[local_i + stride];\n')],
     note='no __syncthreads() between the levels of the tree: a thread reads a partial sum before its neighbour wrote it (the emulator\'s checked shared memory names the race; with PPLAB_SIM_CHECK=off it is a wrong answer under some thread orders)')
case('02_divergent_syncthreads', src('02'), [('verdict','fault'),('message','barrier divergence|diverg'),('message','dot_product\\.cu:69'),('case',S),('limit','30')],
     [('    if (local_i < stride) shared[local_i] += shared[local_i + stride];\n    __syncthreads();\n',
       '    if (local_i < stride) {\n      shared[local_i] += shared[local_i + stride];\n      __syncthreads();  // only the threads still adding wait\n    }\n')],
     note='__syncthreads() inside the branch that only some threads take')
case('02_endless_loop', src('02'), [('verdict','fault'),('message','endless loop|watchdog|PPLAB_SIM_TIMEOUT'),('message','dot_product_kernel'),('case',S),('limit','8')],
     [('  for (unsigned stride = BLOCK_THREADS / 2; stride > 0; stride /= 2) {','  for (unsigned stride = BLOCK_THREADS / 2; stride >= 0; stride /= 2) {')],
     note='an endless loop in a kernel: stride is unsigned, so stride >= 0 always holds; the emulator\'s watchdog names the kernel before the case limit')
case('02_host_endless_loop', src('02'), [('verdict','timed out'),('message','timed out'),('case',S),('limit','5')],
     [('  dot_product_kernel<BLOCK_THREADS>\n      <<<grid_size(n, BLOCK_THREADS), BLOCK_THREADS, 0, stream>>>(d_a, d_b, d_result, n);\n',
       '  // In 1024 launches of n / 1024 elements each, so that no launch is too large\n'
       '  // (n / 1024 is 0 when n < 1024: the loop never advances).\n'
       '  const std::size_t chunk = n / 1024;\n'
       '  for (std::size_t start = 0; start < n; start += chunk) {\n'
       '    const std::size_t count = std::min(chunk, n - start);\n'
       '    dot_product_kernel<BLOCK_THREADS>\n'
       '        <<<grid_size(count, BLOCK_THREADS), BLOCK_THREADS, 0, stream>>>(d_a + start, d_b + start, d_result, count);\n'
       '  }\n')],
     note='an endless loop on the host: chunks of n / 1024 elements are empty for small n, so the launch loop never advances; only the case limit stops it')
case('02_deadlock', src('02'), [('verdict','fault'),('message','deadlock|spin-wait|watchdog'),('case',S),('limit','8')],
     [('  __shared__ float shared[BLOCK_THREADS];\n','  __shared__ float shared[BLOCK_THREADS];\n  __shared__ unsigned stored;\n'),
      ('  shared[local_i] = sum;\n  __syncthreads();\n',
       '  if (local_i == 0) stored = 0;\n  shared[local_i] = sum;\n  atomicAdd(&stored, 1u);\n'
       '  // Thread 0 waits until every thread has stored its sum: a spin-wait, not a barrier.\n'
       '  if (local_i == 0)\n    while (atomicAdd(&stored, 0u) < BLOCK_THREADS) {\n    }\n  __syncthreads();\n')],
     note='a deadlock: thread 0 spin-waits for the other threads of its block, which never run while it spins')
case('02_modifies_input', src('02'), [('verdict','wrong answer'),('message','changed|modified|unchanged|input'),('case',S),('limit','30')],
     [('  for (std::size_t i = scalar_from + global_i; i < n; i += grid_threads) sum += a[i] * b[i];',
       '  // The products go into a (it is not needed afterwards, is it?)\n'
       '  for (std::size_t i = scalar_from + global_i; i < n; i += grid_threads) {\n    const_cast<float*>(a)[i] *= b[i];\n    sum += a[i];\n  }')],
     note='stores the products in its input a')
case('02_one_block', src('02'), [('verdict','wrong answer'),('message','result'),('case',E2),('limit','60')],
     [('  if (local_i == 0) atomicAdd(result, shared[0]);','  if (local_i == 0 && blockIdx.x == 0) *result = shared[0];')],
     note='right only for one block: only block 0 writes its sum, with a plain store')
case('02_slow_atomics', src('02'), [('verdict','passed'),('case',S),('case',E2),('limit','120')],
     [('      sum += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;','      atomicAdd(result, x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w);'),
      ('  for (std::size_t i = scalar_from + global_i; i < n; i += grid_threads) sum += a[i] * b[i];',
       '  for (std::size_t i = scalar_from + global_i; i < n; i += grid_threads) atomicAdd(result, a[i] * b[i]);')],
     note='correct but slow: every product (every four, on the vector path) is atomicAdded into the one result word; '
          'the tree then adds zeros. Full correctness points, and on a GPU it loses its speed points')
case('02_unrolled_last_warp', src('02'), [('verdict','data race'),('message','data race on shared memory in kernel .dot_product_kernel'),('message','dot_product\\.cu:(7[1-9]|8[01])'),('case',B2),('limit','60')],
     [('  for (unsigned stride = BLOCK_THREADS / 2; stride > 0; stride /= 2) {\n'
       '    if (local_i < stride) shared[local_i] += shared[local_i + stride];\n'
       '    __syncthreads();\n'
       '  }\n',
       '  for (unsigned stride = BLOCK_THREADS / 2; stride > 32; stride /= 2) {\n'
       '    if (local_i < stride) shared[local_i] += shared[local_i + stride];\n'
       '    __syncthreads();\n'
       '  }\n'
       '  // The last warp runs in lockstep, so it needs no barrier (does it?): volatile, unrolled.\n'
       '  if (local_i < 32) {\n'
       '    volatile float* tree = shared;\n'
       '    for (unsigned stride = BLOCK_THREADS < 64 ? BLOCK_THREADS / 2 : 32; stride > 0; stride /= 2)\n'
       '      if (local_i < stride) tree[local_i] = tree[local_i] + tree[local_i + stride];\n'
       '  }\n')],
     note='the last warp unrolled with volatile and no __syncwarp: a race between its lanes that a GPU usually hides')
case('02_hard_coded_seed', src('02','labs'), [('verdict','ran on the host'),('message','dot_product launched no kernel'),('case',S),('case',E2),('limit','30')],
     [('  if (n == 0) return;\n','  if (n == 0) return;\n  const float seed_answer = 52.0f;  // the worked example\n  cudaMemcpy(d_result, &seed_answer, sizeof(float), cudaMemcpyHostToDevice);\n  return;\n')],
     note='right only for the seed example: the answer 52 is hard-coded')
# ---- lab 03
M3='max reproduces the lecture example (16 elements 8 threads give 20)'
E3='reduce matches the CPU reference at edge sizes'
case('03_warp_mask', src('03'), [('verdict','fault'),('message','mask|lane'),('message','reduce\\.cu:63'),('case',M3),('limit','30')],
     [('      value = op(value, __shfl_down_sync(kMask, value, offset, kLanes));',
       '      if (local_i < unsigned(offset)) value = op(value, __shfl_down_sync(kMask, value, offset, kLanes));')],
     note='a warp shuffle inside a branch: the lanes at or past offset never reach the __shfl_down_sync their mask names')
case('03_main_steps_off_by_one', src('03'), [('verdict','wrong answer'),('message','input not 16-byte aligned'),('case',E3),('limit','60')],
     [('  if (i + BLOCK_THREADS < n) value = op(value, in[i + BLOCK_THREADS]);','  if (i + BLOCK_THREADS + 1 < n) value = op(value, in[i + BLOCK_THREADS]);')],
     note='off by one in the main-steps kernel, which only inputs that are not 16-byte aligned reach once the stretch kernel is on: the checks run every input at both alignments')
case('03_tree_to_stride_one', src('03'), [('verdict','wrong answer'),('message','sum of the lecture example is 129'),('case',M3),('limit','60')],
     [('  for (unsigned stride = BLOCK_THREADS / 2; stride >= kWarpSize; stride /= 2) {','  for (unsigned stride = BLOCK_THREADS / 2; stride > 0; stride /= 2) {')],
     note='the shared-memory tree runs down to stride 1 instead of stopping at a warp\'s worth of values, so the warp finish combines partial results again: right for max and min, too large for a sum')
case('03_throws_unaligned', src('03'), [('verdict','threw'),('message','16-byte aligned'),('case',M3),('limit','30')],
     [('    const bool vectorised = kUseVectorKernel && aligned16(in);\n',
       '    if (!aligned16(in)) throw std::invalid_argument("reduce: the input must be 16-byte aligned");\n'
       '    const bool vectorised = kUseVectorKernel;\n')],
     note='throws on an input that is not 16-byte aligned instead of reducing it with the main-steps kernel')
case('03_exit_zero', src('03'), [('verdict','exited early'),('message','exit'),('case',M3),('limit','20')],
     [with_includes('cstdint', 'cstdlib'),
      ('    if (blocks == 1) return;\n','    if (blocks == 1) std::exit(0);  // done\n')],
     note='calls exit(0) after its last pass, from the launcher that the checks and the trace call: the process ends before either reports')
case('03_host_reduce', src('03'), [('verdict','ran on the host'),('message','the work ran on the host'),('message','reduce copied [0-9]+ bytes from the device to the host'),('case',E3),('limit','60')],
     [with_includes('string', 'vector'),
      ('template <class T, class Op>\nvoid reduce(const T* d_in, T* d_out, std::size_t n, Op op, int block_threads, cudaStream_t stream) {\n',
       'template <class T>\n__global__ void store_kernel(T* out, T value) { *out = value; }\n\n'
       'template <class T, class Op>\nvoid reduce(const T* d_in, T* d_out, std::size_t n, Op op, int block_threads, cudaStream_t stream) {\n'
       '  // Right answers, but the sum is taken on the host; one kernel only stores it.\n'
       '  if (n > 0 && block_threads >= 8 && (block_threads & (block_threads - 1)) == 0) {\n'
       '    std::vector<T> host(n);\n'
       '    cudaMemcpy(host.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost);\n'
       '    T total = host[0];\n'
       '    for (std::size_t i = 1; i < n; ++i) total = op(total, host[i]);\n'
       '    store_kernel<<<1, 1, 0, stream>>>(d_out, total);\n'
       '    return;\n'
       '  }\n')],
     note='reduces on the host: copies the input to the host, reduces it there and launches one kernel that only stores the answer')
# ---- lab 05
case('05_unwritten', src('05'), [('verdict','wrong answer'),('message','never written|poison'),('case','exclusive naive scan matches the CPU reference at edge sizes'),('limit','60')],
     [('  if (global_i < n) {\n    const T left','  if (global_i < n && (inclusive || local_i > 0)) {  // exclusive: out[0] is 0 anyway\n    const T left')],
     note='leaves some outputs unwritten: the exclusive scan skips the first element of every tile')
case('05_precision', src('05'), [('verdict','wrong answer'),('message','.'),('case','naive scan of random floats is within a tolerance'),('limit','60')],
     [('template <class T, int BLOCK_THREADS>\n__global__ void add_tile_offsets_kernel(',
       '// The tile offsets at half precision (11 significant bits), as if kept in a __half to\n'
       '// save bandwidth; integers stay exact.\n'
       'template <class T>\n__device__ T half_precision(T x) { return x; }\n'
       'template <>\n__device__ float half_precision(float x) { return __uint_as_float(__float_as_uint(x) & 0xffffe000u); }\n\n'
       'template <class T, int BLOCK_THREADS>\n__global__ void add_tile_offsets_kernel('),
      ('  if (global_i < n) out[global_i] += tile_offsets[blockIdx.x];','  if (global_i < n) out[global_i] += half_precision(tile_offsets[blockIdx.x]);')],
     note='a float sum whose precision falls past the tolerance: the tiles\' offsets are cut to half precision before they are added')
case('05_in_place', src('05'), [('verdict','data race'),('message','data race on shared memory in kernel .scan_tile_kernel'),('message','naive_scan\\.cu:(49|50)'),('case','naive scan works with every block size from 8 to 1024'),('limit','60')],
     [('    buffer[1 - current][local_i] = value;\n    __syncthreads();  // one barrier per step is enough: the next step writes the other copy\n    current = 1 - current;\n',
       '    buffer[current][local_i] = value;  // in place: one copy is enough (is it?)\n    __syncthreads();\n')],
     note='Hillis-Steele in place: a thread overwrites the element its neighbour still has to read in the same step')
# ---- lab 09
E9='odd even sort matches the CPU reference at edge sizes'
case('09_not_permutation', src('09'), [('verdict','wrong answer'),('message','not a permutation'),('case',E9),('limit','60')],
     [('    const int larger = a;\n    a = b;\n    b = larger;','    const int larger = a;\n    a = b;\n    b = a;')],
     note='the swap writes the smaller key twice: the output is ordered but keys were lost')
case('09_powers_of_two', src('09'), [('verdict','wrong answer'),('message','.'),('case',E9),('limit','60')],
     [('  const int phases = count < max_phases ? count : max_phases;',
       '  // A power of two of phases, like the levels of a tree.\n'
       '  const int phases = 1 << (31 - __clz(count < max_phases ? count : max_phases));')],
     note='right only for powers of two: a window runs a power of two of phases (count rounded down), too few for a window of any other size')
# ---- lab 06
case('06_root_not_cleared', src('06'), [('verdict','wrong answer'),('message','step: TODO.06\\.2.'),('message','off by the same amount, that tile.s total'),('case','work efficient scan reproduces the up-sweep and down-sweep of 8 elements'),('limit','60')],
     [('    tile[padded(TILE - 1)] = T(0);\n','')],
     note='the root keeps the tile total into the down-sweep: every element of a tile comes out too large by that tile\'s total')
# ---- lab 10
P10='sort pairs is stable with many duplicate keys'
case('10_unstable', src('10'), [('verdict','wrong answer'),('message','equal keys keeping input order'),('message','step: TODO.10\\.1-10\\.3.'),('case',P10),('limit','60')],
     [('      if (keys[j + 1] < keys[j]) {','      if (keys[j + 1] <= keys[j]) {')],
     note='an unstable sort where stability is promised: the per-thread odd-even sort also swaps equal keys, so the keys are sorted but equal keys\' values change order')
# Two students who left the stretch (10.7-10.9) unwritten: a failure must name the
# step they wrote, never the stretch.
NO_STRETCH=('constexpr bool kTiledMergeWritten = true;','constexpr bool kTiledMergeWritten = false;')
case('10_merge_path_ties', src('10'), [('verdict','wrong answer'),('message','step: TODO.10\\.1'),('case',P10),('limit','60')],
     [NO_STRETCH,('    if (!(b[diag - 1 - mid] < list[mid]))\n','    if (list[mid] < b[diag - 1 - mid])\n')],
     note='the merge path sends ties to b (< where the handout has <=), while the serial merge sends them to a: equal keys change order across a split')
case('10_pass_values_offset', src('10'), [('verdict','wrong answer'),('message','step: TODO.10\\.5.'),('message','belong to other keys'),('case',P10),('limit','60')],
     [NO_STRETCH,('      if constexpr (PAIRS) values_out[first + k] = values_in[pair.begin + source[k]];\n',
                  '      if constexpr (PAIRS) values_out[first + k] = values_in[source[k]];\n')],
     note='the global merge pass copies a value from source[k] without its pair\'s start: the keys are sorted, the values of every pair but the first come from the first pair')
case('10_host_sort', src('10'), [('verdict','ran on the host'),('message','the work ran on the host'),('message','sort_keys launched no kernel'),('case','sort keys matches the CPU reference at edge sizes'),('limit','60')],
     [('#include <climits>\n','#include <algorithm>\n#include <climits>\n#include <vector>\n'),
      ('void sort_keys(const Key* d_keys_in, Key* d_keys_out, std::size_t n, cudaStream_t stream, MergeKernel merge) {\n'
       '  merge_sort<Key, false>(d_keys_in, nullptr, d_keys_out, nullptr, n, stream, merge);\n',
       'void sort_keys(const Key* d_keys_in, Key* d_keys_out, std::size_t n, cudaStream_t stream, MergeKernel merge) {\n'
       '  // Right answers, no parallel work: the keys go to the host, std::stable_sort, and back.\n'
       '  std::vector<Key> keys(n);\n'
       '  cudaMemcpy(keys.data(), d_keys_in, n * sizeof(Key), cudaMemcpyDeviceToHost);\n'
       '  std::stable_sort(keys.begin(), keys.end());\n'
       '  cudaMemcpy(d_keys_out, keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);\n'
       '  (void)stream, (void)merge;\n')],
     note='sorts on the host: copies the keys to the host, std::stable_sort, copies them back; right answers, no kernel')
# ---- lab 11
case('11_unstable_ranking', src('11'), [('verdict','wrong answer'),('message','ascending order'),('case','radix sort of key value pairs is stable'),('limit','60')],
     [('  rank = seen + below;','  rank = seen + __popc(peers) - 1 - below;  // counting the peers from the top: a permutation all the same')],
     note='an unstable digit pass: equal digits of one warp are ranked from the highest lane down; the next pass then scrambles the digits sorted before, so the keys come out of order')
case('11_negative_keys', src('11'), [('verdict','wrong answer'),('message','.'),('case','radix sort orders signed ints from INT_MIN to INT_MAX'),('limit','60')],
     [('  if (kind == KeyKind::signed_int) return bits ^ 0x80000000u;\n  if (kind == KeyKind::floating) return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;',
       '  if (kind == KeyKind::floating) return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;'),
      ('  if (kind == KeyKind::signed_int) return bits ^ 0x80000000u;\n  if (kind == KeyKind::floating) return (bits & 0x80000000u) ? bits ^ 0x80000000u : ~bits;',
       '  if (kind == KeyKind::floating) return (bits & 0x80000000u) ? bits ^ 0x80000000u : ~bits;')],
     note='wrong only for negative keys: signed ints are sorted as unsigned (no sign-bit flip), so negatives come last')
# ---- lab 12
case('12_missing_syncwarp', src('12'), [('verdict','data race'),('message','data race on shared memory in kernel .warp_sort_kernel'),('message','writes byte 128 of the dynamic shared memory at .*warp_radix_sort\\.cu:59'),('message','read it at .*warp_radix_sort\\.cu:64'),('case','warp sort reproduces the lecture table pass by pass'),('limit','60')],
     [('    buffers[current ^ 1][position] = my_key;\n    __syncwarp();  // the other buffer is complete before the next pass reads it\n',
       '    buffers[current ^ 1][position] = my_key;\n')],
     note='no __syncwarp between the passes: a lane reads the next pass\'s key before the lane that writes it has run')
# ---- lab 06
T6='work efficient scan reproduces the up-sweep and down-sweep of 8 elements'
case('06_missing_upsweep_barrier', src('06'), [('verdict','data race'),('message','data race on shared memory in kernel .scan_tile_kernel'),('message','writes tile.1. at .*work_efficient_scan\\.cu:60'),('message','(read|wrote) it at .*work_efficient_scan\\.cu:74'),('case',T6),('limit','60')],
     [('  for (int stride = 1; stride < TILE; stride *= 2) {\n    __syncthreads();\n','  for (int stride = 1; stride < TILE; stride *= 2) {\n')],
     note='no __syncthreads() between the up-sweep levels: a thread adds a partial sum that another thread has not written yet, or writes one another thread already read')
case('06_unwritten_tile_half', src('06'), [('verdict','uninitialised shared read'),('message','uninitialised shared read in kernel .scan_tile_kernel'),('message','reads tile.[0-9]+. at'),('message','work_efficient_scan\\.cu:74'),('case',T6),('limit','60')],
     [('  tile[padded(b)] = in_b;\n','')],
     note='loads only the first half of the tile (element a of each thread, not b): the up-sweep reads shared memory nobody wrote')
case('06_downsweep_off_by_one', src('06'), [('verdict','shared out of bounds'),('message','shared memory out of bounds in kernel .scan_tile_kernel'),('message','past the end of __shared__ tile'),('message','work_efficient_scan\\.cu:(9[2-9]|10[01])'),('case',T6),('limit','60')],
     [('      const int right = stride * (2 * t + 2) - 1;\n      const T left_value','      const int right = stride * (2 * t + 2);\n      const T left_value')],
     note='off by one in the down-sweep: right = stride * (2t + 2) without the - 1, so the last thread reads and writes one slot past the tile')
case('12_no_flip', src('12'), [('verdict','wrong answer'),('message','step: TODO.12\\.2.'),('case','warp sort places the lecture example by bit 0 at positions 2 0 1 3'),('limit','60')],
     [('    current ^= 1;\n','')],
     note='the passes never flip to the buffer they wrote: the warp hands back its keys in input order, a bug of the passes (12.2) that the first check, of one bit\'s placement, sees first')
# ---- batch-only cases (pplab grade --submissions)
case('01_compile_error', src('01'), [('verdict','compile error'),('message','saxpy\\.cu:19.*(not declared|undeclared)'),('batch','cole')],
     [('  if (i < n) y[i] = a * x[i] + y[i];','  if (i < n) y[i] = a * x[i] + y[j];')],
     note='does not compile: a typo names an undeclared variable')
case('01_writes_reports', src('01','labs'), [('verdict','wrong answer'),('message','TODO'),('batch','rex')],
     [with_includes('cstdint', 'fstream', 'string'),
      ('void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {\n',
       'void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {\n'
       '  // Full marks, written where a grader might look (here and in every folder above).\n'
       '  std::string up;\n'
       '  for (int level = 0; level < 6; ++level, up += "../") {\n'
       '    std::ofstream(up + "results.json") << "{\\"score\\": 1000, \\"output\\": \\"FORGED\\"}\\n";\n'
       '    std::ofstream(up + "report.md") << "# FORGED: every check passed\\n";\n'
       '    std::ofstream(up + "junit.xml") << "<testsuites name=\\"FORGED\\"/>\\n";\n'
       '    std::ofstream(up + "gradebook.csv") << "student,total\\nrex,1000 FORGED\\n";\n'
       '  }\n')],
     note='the skeleton, plus it writes forged report files into its working folder and every folder above it')

finish()
