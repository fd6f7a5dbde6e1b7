// The IPOPT reference driver of the optimal-control benchmarks (issue 16; README.md here).
//
//   ipopt-ocp --problem so3-steering --n 400 --phi 1 [--map exp] [--gauge]
//   ipopt-ocp --problem plate-ball --n 200 --Omega 0.5 --end 0,0,0,0,0.3 [--gauge]
//   ipopt-ocp --list                      the registered problems
//   common:   --check        derivative checks (IPOPT's derivative_test = second-order and a
//                            central-difference check of this driver's own), use a small n
//             --print-level k (IPOPT's, default 0)   --max-iter k (default 3000)
//             --ipopt name=value (any IPOPT option; repeatable)   --dump file (trajectory JSON)
//
// Output: one JSON line on stdout (problem, n, params, status, iterations, cost with 17 digits,
// infeasibilities, IPOPT's CPU and wall time, this driver's evaluation time, the options, the
// problem's own post-solve checks). Exit status 0 when IPOPT reports Solve_Succeeded, 1 for any
// other IPOPT status, 2 for bad arguments.
#include <IpIpoptApplication.hpp>
#include <IpoptConfig.h>
#include <IpSolveStatistics.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <unistd.h>
#include <sstream>

#include "check.hpp"
#include "ocp.hpp"

namespace {

const char* statusName(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level: return "Solved_To_Acceptable_Level";
    case Ipopt::Infeasible_Problem_Detected: return "Infeasible_Problem_Detected";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "Search_Direction_Becomes_Too_Small";
    case Ipopt::Diverging_Iterates: return "Diverging_Iterates";
    case Ipopt::User_Requested_Stop: return "User_Requested_Stop";
    case Ipopt::Feasible_Point_Found: return "Feasible_Point_Found";
    case Ipopt::Maximum_Iterations_Exceeded: return "Maximum_Iterations_Exceeded";
    case Ipopt::Restoration_Failed: return "Restoration_Failed";
    case Ipopt::Error_In_Step_Computation: return "Error_In_Step_Computation";
    case Ipopt::Maximum_CpuTime_Exceeded: return "Maximum_CpuTime_Exceeded";
    case Ipopt::Not_Enough_Degrees_Of_Freedom: return "Not_Enough_Degrees_Of_Freedom";
    case Ipopt::Invalid_Problem_Definition: return "Invalid_Problem_Definition";
    case Ipopt::Invalid_Option: return "Invalid_Option";
    case Ipopt::Invalid_Number_Detected: return "Invalid_Number_Detected";
    case Ipopt::Unrecoverable_Exception: return "Unrecoverable_Exception";
    case Ipopt::NonIpopt_Exception_Thrown: return "NonIpopt_Exception_Thrown";
    case Ipopt::Insufficient_Memory: return "Insufficient_Memory";
    case Ipopt::Internal_Error: return "Internal_Error";
  }
  return "unknown";
}

std::string names() {
  std::string s;
  for (const auto& [k, v] : gm::registry()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

int run(int argc, char** argv) {
  const gm::Args args(argc, argv);
  if (args.has("list")) {
    std::printf("%s\n", names().c_str());
    return 0;
  }
  const std::string name = args.str("problem", "");
  const auto it = gm::registry().find(name);
  if (it == gm::registry().end()) throw std::invalid_argument("--problem must be one of: " + names());
  const bool check = args.has("check");
  const int printLevel = static_cast<int>(args.integer("print-level", 0, 0, 12));
  const int maxIter = static_cast<int>(args.integer("max-iter", 3000, 0, 100000));
  const std::string dump = args.str("dump", "");
  std::unique_ptr<gm::Problem> problem = it->second(args);
  const std::vector<std::string> extra = args.all("ipopt");
  const auto unused = args.unused();
  if (!unused.empty()) throw std::invalid_argument("unknown option --" + unused.front());
  if (check && problem->nvar() > 5000)
    throw std::invalid_argument("--check builds dense matrices: use n with at most 5000 unknowns");

  // options, in the order IPOPT reads them (the extra ones last, so they override)
  std::vector<std::pair<std::string, std::string>> opts = {
      {"print_level", std::to_string(printLevel)},
      {"sb", "yes"},
      {"linear_solver", "mumps"},
      {"tol", "1e-8"},
      {"hessian_approximation", "exact"},
      {"mu_strategy", "monotone"},
      {"max_iter", std::to_string(maxIter)},
  };
  std::string checkFile;
  if (check) {
    char tmpl[] = "/tmp/ipopt-ocp-check-XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the derivative check");
    close(fd);
    checkFile = tmpl;
    opts.insert(opts.end(), {{"derivative_test", "second-order"},
                             {"derivative_test_tol", "1e-4"},
                             {"point_perturbation_radius", "0.1"},
                             {"output_file", checkFile},
                             {"file_print_level", "5"}});
  }
  for (const auto& kv : extra) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--ipopt needs name=value, got " + kv);
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    auto same = std::find_if(opts.begin(), opts.end(), [&](const auto& o) { return o.first == k; });
    if (same != opts.end()) same->second = v;  // IPOPT would refuse to overwrite within one stream
    else opts.emplace_back(k, v);
  }
  std::stringstream optStream;
  for (const auto& [k, v] : opts) optStream << k << ' ' << v << '\n';

  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  if (app->Initialize(optStream) != Ipopt::Solve_Succeeded) throw std::invalid_argument("IPOPT rejected the options");
  Ipopt::SmartPtr<gm::StageNLP> nlp = new gm::StageNLP(*problem);

  gm::CentralDiffResult cd;
  if (check) cd = gm::centralDiffCheck(*nlp, *problem, 12345u, 0.1, 1e-5);
  const double evalBefore = nlp->evalSeconds;

  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(nlp);
  const Ipopt::SmartPtr<Ipopt::SolveStatistics> stats = app->Statistics();

  gm::Json out;
  out.str("problem", problem->name()).raw("params", problem->params());
#ifdef IPOPT_VERSION
  out.str("ipopt", IPOPT_VERSION);
#endif
  out.str("status", statusName(status)).integer("statusCode", status);
  const bool solved = status == Ipopt::Solve_Succeeded;
  if (Ipopt::IsValid(stats)) {
    double dualInf, constrViol, compl_, kkt;
    stats->Infeasibilities(dualInf, constrViol, compl_, kkt);
    out.integer("iterations", stats->IterationCount());
    out.num("cost", nlp->objFinal);
    out.num("primalInfeasibility", constrViol).num("dualInfeasibility", dualInf).num("complementarity", compl_);
    out.num("ipoptCpuSeconds", stats->TotalCpuTime()).num("ipoptWallSeconds", stats->TotalWallclockTime());
    Ipopt::Index nf, ng, ngf, nj, nh;
    stats->NumberOfEvaluations(nf, ng, ngf, nj, nh);
    out.raw("evaluations", "{\"f\":" + std::to_string(nf) + ",\"g\":" + std::to_string(ng) + ",\"gradf\":" +
                               std::to_string(ngf) + ",\"jac\":" + std::to_string(nj) + ",\"hess\":" +
                               std::to_string(nh) + "}");
  }
  out.num("evalSeconds", nlp->evalSeconds - evalBefore);
  out.integer("unknowns", problem->nvar()).integer("constraints", problem->ncon());
  out.integer("nnzJacobian", nlp->nnzJac).integer("nnzHessian", nlp->nnzHess);
  {
    gm::Json o;
    for (const auto& [k, v] : opts)
      if (k != "output_file") o.str(k, v);
    out.raw("options", o.done());
  }
  if (!nlp->xFinal.empty()) {
    gm::Json c;
    problem->report(nlp->xFinal.data(), c);
    out.raw("checks", c.done());
    if (!dump.empty()) {
      std::ofstream f(dump);
      f << problem->trajectory(nlp->xFinal.data()) << '\n';
      if (!f) throw std::runtime_error("cannot write " + dump);
    }
  }
  bool checkPassed = true;
  if (check) {
    std::ifstream f(checkFile);
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(checkFile.c_str());
    const std::string log = ss.str();
    std::smatch mt;
    long errors = -1;
    if (log.find("No errors detected by derivative checker") != std::string::npos) errors = 0;
    else if (std::regex_search(log, mt, std::regex("Derivative checker detected (\\d+) error"))) errors = std::stol(mt[1]);
    const double cdTol = 1e-6;
    const bool cdPassed = cd.ok && cd.grad <= cdTol && cd.jac <= cdTol && cd.hess <= cdTol;
    checkPassed = errors == 0 && cdPassed;
    gm::Json d;
    d.integer("ipoptErrors", errors).boolean("ipoptPassed", errors == 0);
    d.str("ipoptTest", "second-order, derivative_test_tol 1e-4, point_perturbation_radius 0.1");
    d.num("centralGrad", cd.grad).num("centralJacobian", cd.jac).num("centralHessian", cd.hess);
    d.integer("centralEntries", cd.entries).num("centralTol", cdTol).boolean("centralPassed", cdPassed);
    d.str("centralTest", "|FD - exact|/(1 + |exact|), step 1e-5*max(1,|x_i|), random point x0 + U(-0.1, 0.1)");
    d.boolean("passed", checkPassed);
    out.raw("derivativeCheck", d.done());
  }
  std::printf("%s\n", out.done().c_str());
  return solved && checkPassed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "ipopt-ocp: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ipopt-ocp: %s\n", e.what());
    return 2;
  }
}
